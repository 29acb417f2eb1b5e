package chatstream

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/markdown"
	"loupe/app/ui"
)

// chatLang keeps a code block's language only when it is a plain word (it becomes a class).
var chatLang = regexp.MustCompile(`^[A-Za-z0-9_+#.-]{1,32}$`)

// chatCodeChunk is how many lines of a growing code block share one text node: only the last
// node changes as tokens arrive.
const chatCodeChunk = 64

// chatMessage shows one message of the conversation. An answer renders its Markdown block by
// block: completed blocks keep their HTML (go-app leaves an unchanged Raw node alone), the
// open tail is rendered again on each update, and fenced code is shown as text in chunks.
type chatMessage struct {
	app.Compo

	// Turn is the message; Index its position; Rev the answer's revision, which changes
	// whenever the answer does.
	Turn  *Turn
	Index int
	Rev   int
	// MetricsID is the id of the answer's metrics line ("chat-metrics" on the latest answer of
	// the chat view), "" for none.
	MetricsID string
	// OnRetry, when set (on the conversation's last turn, whose answer can be sent again), is
	// what the answer's Send again button does; nil shows no button.
	OnRetry func(ctx app.Context)

	seen     *Turn
	seenText *Answer      // the answer whose text the per-message state is about (Turn.Shown)
	previews map[int]bool // code blocks whose HTML preview is open, by block index
	copied   int          // block index + 1 of the code just copied
	wrapped  []string     // completed blocks' HTML wrapped in one root, by block index
	from     []string     // the HTML each wrapped string was made from
}

// NewMessage returns the component showing turn t, the index-th of the conversation; rev is its
// answer's revision (Answer.Rev), 0 for a turn without one.
func NewMessage(t *Turn, index, rev int) *chatMessage {
	return &chatMessage{Turn: t, Index: index, Rev: rev}
}

// WithMetricsID names the answer's metrics line with id (see MetricsID).
func (m *chatMessage) WithMetricsID(id string) *chatMessage {
	m.MetricsID = id
	return m
}

// WithRetry gives the answer a Send again button that calls on (see OnRetry).
func (m *chatMessage) WithRetry(on func(ctx app.Context)) *chatMessage {
	m.OnRetry = on
	return m
}

// onRetry sends the conversation again, in this answer's place.
func (m *chatMessage) onRetry(ctx app.Context, e app.Event) {
	if m.OnRetry != nil {
		m.OnRetry(ctx)
	}
}

// OnUpdate forgets per-message state when the slot shows another message.
func (m *chatMessage) OnUpdate(ctx app.Context) {
	if m.Turn != m.seen || m.Turn.Shown() != m.seenText {
		m.seen, m.seenText, m.previews, m.copied, m.wrapped, m.from = m.Turn, m.Turn.Shown(), nil, 0, nil, nil
	}
}

// Render implements app.Composer.
func (m *chatMessage) Render() app.UI {
	t := m.Turn
	m.seen, m.seenText = t, t.Shown()
	switch t.Role {
	case "user":
		return app.Div().Class("chat-msg user").Body(
			app.Div().Class("chat-role").Text("You"),
			app.If(t.Text != "", func() app.UI { return app.P().Class("chat-text").Text(t.Text) }),
			app.If(t.LeftOutImage != "", func() app.UI {
				return app.P().Class("chat-note muted").Text("An image was attached (" + t.LeftOutImage + "); the link does not carry images, so it is not sent again.")
			}),
			app.If(t.Image != nil, func() app.UI {
				return app.Figure().Class("chat-thumb").Body(
					app.Img().Src(t.Image.DataURL).Alt("%s", t.Image.Name).Width(96),
					app.FigCaption().Class("muted").Text(t.Image.Name+" · "+t.Image.Mime+" · "+ui.HumanSize(t.Image.Size)),
				)
			}),
		)
	case "tool":
		return app.Div().Class("chat-msg tool").Body(
			app.Div().Class("chat-role").Body(app.Text("Tool result · "), app.Code().Text(t.ToolName), app.Span().Class("muted").Text(" "+t.ToolCallID)),
			app.Pre().Class("chat-tool-result mono").Text(t.Text),
		)
	}
	return m.renderAnswer(t.Answer, t.Shown())
}

// renderAnswer shows answer a: its text as shown (shown, which is a, or while a has said
// nothing the earlier answer it was sent again to replace), its state, error and metrics.
func (m *chatMessage) renderAnswer(a, shown *Answer) app.UI {
	class := "chat-msg assistant"
	if a.Streaming {
		class += " streaming"
	}
	replaced := shown != a
	if replaced {
		class += " replaced"
	}
	var blocks []app.UI
	done := shown.md.Completed()
	for i, b := range done {
		if b.Code {
			blocks = append(blocks, m.codeBlock(i, b))
		} else {
			blocks = append(blocks, app.Raw(m.wrap(i, b.HTML())))
		}
	}
	if tail := shown.md.Tail(); tail != (markdown.Block{}) {
		switch {
		case tail.Code:
			blocks = append(blocks, m.codeBlock(len(done), tail))
		default:
			blocks = append(blocks, app.Raw(`<div class="md-block md-tail">`+tail.HTML()+`</div>`))
		}
	}
	var cards []app.UI
	for _, c := range shown.Calls {
		cards = append(cards, newToolCallCard(c, shown, !replaced && !a.Streaming && !a.Answered[c.ID]))
	}
	var retry app.UI
	if m.OnRetry != nil {
		retry = app.Button().Type("button").ID("chat-retry").Class("btn btn-small chat-retry").
			Title("Send this conversation again; the answer above is replaced once the new one starts").
			Text("Send again").OnClick(m.onRetry)
	}
	return app.Div().Class(class).Aria("busy", strconv.FormatBool(a.Streaming)).Body(
		app.Div().Class("chat-role").Body(
			app.Text("Assistant"),
			app.If(a.Streaming, func() app.UI { return app.Span().Class("spinner").Aria("label", "streaming") }),
		),
		app.If(replaced, func() app.UI { return app.P().Class("chat-note muted chat-replaced-note").Text(replacedNote(a)) }),
		app.Div().Class("chat-md prose").Body(blocks...),
		app.If(len(cards) > 0, func() app.UI { return app.Div().Class("tool-calls").Body(cards...) }),
		app.If(a.Stopped, func() app.UI {
			return app.P().Class("chat-note muted").Text("Stopped: the answer above is what arrived before Stop.")
		}),
		chatAnswerError(a, retry),
		m.metrics(a),
		newChatRawView(a, m.Index, a.Rev),
	)
}

// wrap returns a completed block's HTML in one root element, as app.Raw needs, cached.
func (m *chatMessage) wrap(i int, html string) string {
	for len(m.wrapped) <= i {
		m.wrapped, m.from = append(m.wrapped, ""), append(m.from, "")
	}
	if m.from[i] != html || m.wrapped[i] == "" {
		m.wrapped[i], m.from[i] = `<div class="md-block">`+html+`</div>`, html
	}
	return m.wrapped[i]
}

// codeBlock renders a fenced code block with its copy button, and for HTML a preview.
func (m *chatMessage) codeBlock(i int, b markdown.Block) app.UI {
	lang := b.Lang
	if !chatLang.MatchString(lang) {
		lang = ""
	}
	label := lang
	if label == "" {
		label = "code"
	}
	isHTML := strings.EqualFold(lang, "html")
	// Code is shown as text, open or closed: a growing block changes only its last chunk, and
	// closing it replaces nothing (no large HTML to parse and lay out again at the end).
	var chunks []app.UI
	for rest := b.Text; rest != ""; {
		cut := len(rest)
		for n, j := 0, 0; j < len(rest); j++ {
			if rest[j] == '\n' {
				if n++; n == chatCodeChunk {
					cut = j + 1
					break
				}
			}
		}
		// Each chunk is its own block box: the browser lays out only the last one again.
		chunks = append(chunks, app.Span().Class("code-chunk").Text(rest[:cut]))
		rest = rest[cut:]
	}
	c := app.Code().Body(chunks...)
	if lang != "" {
		c = c.Class("language-" + lang)
	}
	// Focusable, so a keyboard can scroll a wide block (WCAG 2.1.1; axe scrollable-region-focusable).
	code := app.Pre().Class("md-code").TabIndex(0).Body(c)
	copyText := "Copy"
	if m.copied == i+1 {
		copyText = "Copied"
	}
	return app.Div().Class("code-block").Body(
		app.Div().Class("code-head").Body(
			app.Span().Class("code-lang mono").Text(label),
			app.If(b.Open, func() app.UI { return app.Span().Class("muted").Text("writing…") }),
			app.Span().Class("spacer"),
			app.If(isHTML && !b.Open, func() app.UI {
				return app.Button().Type("button").Class("btn btn-small preview-code").Value(i).
					Aria("pressed", strconv.FormatBool(m.previews[i])).Text(map[bool]string{true: "Hide preview", false: "Preview"}[m.previews[i]]).
					OnClick(m.onPreview)
			}),
			app.Button().Type("button").Class("btn btn-small copy-code").Value(i).Title("Copy the code").Text(copyText).OnClick(m.onCopy),
		),
		code,
		app.If(isHTML && !b.Open && m.previews[i], func() app.UI { return ui.NewHTMLPreview(b.Text) }),
	)
}

// block returns the block at index i: a completed one, or the tail.
func (m *chatMessage) block(i int) (markdown.Block, bool) {
	shown := m.Turn.Shown()
	if shown == nil {
		return markdown.Block{}, false
	}
	md := shown.md
	if done := md.Completed(); i < len(done) {
		return done[i], true
	}
	if i == len(md.Completed()) {
		return md.Tail(), true
	}
	return markdown.Block{}, false
}

// onPreview opens or closes the live preview of an HTML code block.
func (m *chatMessage) onPreview(ctx app.Context, e app.Event) {
	i, err := strconv.Atoi(ctx.JSSrc().Get("value").String())
	if err != nil {
		return
	}
	if m.previews == nil {
		m.previews = map[int]bool{}
	}
	m.previews[i] = !m.previews[i]
	if m.previews[i] {
		btn := ctx.JSSrc()
		ctx.Defer(func(app.Context) { ui.RevealPreview(btn) })
	}
}

// onCopy copies a code block's code to the clipboard.
func (m *chatMessage) onCopy(ctx app.Context, e app.Event) {
	i, err := strconv.Atoi(ctx.JSSrc().Get("value").String())
	b, ok := m.block(i)
	if err != nil || !ok {
		return
	}
	ui.WriteClipboard(ctx, b.Text, func(ctx app.Context) {
		m.copied = i + 1
		ctx.After(1500*time.Millisecond, func(app.Context) { m.copied = 0 })
	})
}

// metrics is the answer's metrics line, the only one the conversation shows for it.
func (m *chatMessage) metrics(a *Answer) app.UI {
	d := app.Div().Class("chat-msg-metrics muted").Aria("live", "off")
	if m.MetricsID != "" {
		d = d.ID(m.MetricsID)
	}
	return d.Body(Metrics(a)...)
}
