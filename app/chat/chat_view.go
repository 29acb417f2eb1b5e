package chat

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/chatstream"
	"loupe/app/op"
	"loupe/app/ui"
)

func init() {
	op.AddOperationView(catalog.ViewerChat, func(op *catalog.Operation, api *catalog.API) app.UI {
		return newChatView(op, api)
	})
}

// chatWarmUpDelay lets the page finish mounting before chatstream.Markdown warms up.
const chatWarmUpDelay = 200 * time.Millisecond

// chatView is the chat completions playground: settings (model, system prompt, stream, tools),
// the conversation, and the composer. Answers stream in through the proxy, which adds the key:
// the browser never holds one.
type chatView struct {
	app.Compo

	// Op is the chat completions operation; API its API (for the proxy path).
	Op  *catalog.Operation
	API *catalog.API

	ctx      app.Context // the view's own context: updates must outlive any button
	mounted  bool
	settings chatstream.Settings
	turns    []*chatstream.Turn
	problem  string // a request that could not be built
	// toolsProblem says why the tools field is not usable; it shows beside the field.
	toolsProblem string
	def          chatstream.Settings // the settings a new chat starts with; a link holds what differs
	draft        string              // the message being typed, for the link and the preview
	requestOpen  bool                // the request preview is unfolded
	live         *chatstream.Answer
	linkNote     string // what the link could not hold or give back
	linkCopied   bool   // Copy link has put the link on the clipboard
}

func newChatView(op *catalog.Operation, api *catalog.API) *chatView {
	def := chatstream.Settings{Model: chatstream.ModelOf(op), Stream: true, ToolChoice: "auto"}
	return &chatView{Op: op, API: api, settings: def, def: def}
}

// OnMount keeps the view's context for the answers' updates and takes the tool results the
// cards post.
func (v *chatView) OnMount(ctx app.Context) {
	v.ctx, v.mounted = ctx, true
	v.readLink()
	// Build the Markdown renderer's tables now, in a task of their own (a timer wakes the
	// goroutine), rather than in the task that shows the first tokens of the first answer.
	time.AfterFunc(chatWarmUpDelay, func() { chatstream.Markdown().Warm() })
	ctx.Handle(chatstream.ToolResultAction, func(ctx app.Context, a app.Action) {
		if r, ok := a.Value.(chatstream.ToolResult); ok {
			v.onToolResult(ctx, r.Answer, r.CallID, r.Name, r.Result)
		}
	})
}

// OnDismount stops an answer still streaming: go-app never cancels a context by itself.
func (v *chatView) OnDismount() {
	if v.live != nil && v.mounted {
		v.live.Stop(v.ctx)
	}
	v.mounted = false
}

// proxyURL is where requests go: the proxy for this API, on the operation's path.
func (v *chatView) proxyURL() string {
	slug, path := "chat", "/v1/chat/completions"
	if v.API != nil && v.API.Slug != "" {
		slug = v.API.Slug
	}
	if v.Op != nil && v.Op.Path != "" {
		path = v.Op.Path
	}
	return "/proxy/" + slug + path
}

// onSend adds the user's message and asks for an answer. It reports whether the message was
// taken: a request that cannot be built (tools that are not JSON) leaves it in the composer.
func (v *chatView) onSend(ctx app.Context, text string, img *chatstream.Image) bool {
	if v.live != nil || (strings.TrimSpace(text) == "" && img == nil) {
		return false
	}
	turn := &chatstream.Turn{Role: "user", Text: text, Image: img}
	if _, err := chatstream.Body(v.settings, append(v.turns[:len(v.turns):len(v.turns)], turn)); err != nil {
		// The composer's event updates the composer only: the view renders the error itself.
		v.ctx.Dispatch(func(app.Context) {
			if errors.Is(err, chatstream.ErrBadTools) {
				v.toolsProblem = err.Error()
			} else {
				v.problem = err.Error()
			}
		})
		return false
	}
	v.turns = append(v.turns, turn)
	v.request(nil)
	ctx.Defer(func(app.Context) { revealLastQuestion() })
	return true
}

// revealLastQuestion scrolls the user's newest message to the top of the view, so the answer
// grows below it in sight, above the composer.
func revealLastQuestion() {
	msgs := app.Window().Get("document").Call("querySelectorAll", "#chat-view .chat-msg.user")
	if n := msgs.Length(); n > 0 {
		opts := app.Window().Get("Object").New()
		opts.Set("block", "start")
		opts.Set("behavior", "smooth")
		msgs.Index(n-1).Call("scrollIntoView", opts)
	}
}

// onToolResult answers a tool call; once every call of that answer has its result, the
// conversation continues.
func (v *chatView) onToolResult(ctx app.Context, a *chatstream.Answer, callID, name, result string) {
	if v.live != nil || a.Answered[callID] {
		return
	}
	a.Answered[callID] = true
	a.Rev++
	v.turns = append(v.turns, &chatstream.Turn{Role: "tool", Text: result, ToolCallID: callID, ToolName: name})
	for _, c := range a.Calls {
		if !a.Answered[c.ID] {
			return
		}
	}
	v.request(nil)
}

// request builds the body from the conversation and streams the answer, in a new turn: one
// that replaces the failed turn replacing (chatstream.Retry) when it is sent again.
func (v *chatView) request(replacing *chatstream.Turn) {
	body, err := chatstream.Body(v.settings, v.turns)
	if err != nil {
		v.problem = err.Error()
		return
	}
	v.problem = ""
	a := chatstream.NewAnswer(chatstream.Markdown())
	reqCtx, cancel := context.WithCancel(context.Background())
	a.Cancel = cancel
	link, url := encodeChatLink(v.settings, v.def, v.lastQuestion(), nil), v.proxyURL()
	a.OnOver = func(ctx app.Context) {
		if v.live == a {
			v.live = nil
		}
		recordChatHistory(ctx, v.API, v.Op, url, link, a)
		v.writeLink() // the address holds the conversation with its new answer
	}
	turn := &chatstream.Turn{Role: "assistant", Answer: a}
	if replacing != nil {
		turn = chatstream.Retry(replacing, a)
	}
	v.turns = append(v.turns, turn)
	v.live = a
	ctx, url := v.ctx, v.proxyURL()
	ctx.Async(func() { a.Send(ctx, reqCtx, url, body) })
}

// onStop ends the answer at once and keeps what arrived. The composer calls it from its own
// button, so the change is dispatched on the view's context: the view, not the composer, shows
// the answer stopped.
func (v *chatView) onStop(ctx app.Context) {
	v.ctx.Dispatch(func(ctx app.Context) {
		if v.live != nil {
			v.live.Stop(ctx)
		}
	})
}

// onClear starts a new conversation.
func (v *chatView) onClear(ctx app.Context, e app.Event) {
	if v.live != nil {
		v.live.Stop(ctx)
	}
	v.turns, v.problem = nil, ""
	v.writeLink()
}

func (v *chatView) onSystem(ctx app.Context, e app.Event) {
	v.settings.System = ctx.JSSrc().Get("value").String()
	v.writeLink()
}

func (v *chatView) onModel(ctx app.Context, e app.Event) {
	v.settings.Model = strings.TrimSpace(ctx.JSSrc().Get("value").String())
	v.writeLink()
}

func (v *chatView) onStream(ctx app.Context, e app.Event) {
	v.settings.Stream = ctx.JSSrc().Get("checked").Bool()
	v.writeLink()
}

func (v *chatView) onTools(ctx app.Context, e app.Event) {
	v.settings.Tools, v.problem, v.toolsProblem = ctx.JSSrc().Get("value").String(), "", ""
	v.writeLink()
}

func (v *chatView) onToolChoice(ctx app.Context, e app.Event) {
	v.settings.ToolChoice = ctx.JSSrc().Get("value").String()
	v.writeLink()
}

// onToolsExample fills the tools field with an example definition.
func (v *chatView) onToolsExample(ctx app.Context, e app.Event) {
	v.settings.Tools, v.problem, v.toolsProblem = chatstream.ToolsExample, "", ""
	v.writeLink()
}

// Render implements app.Composer.
func (v *chatView) Render() app.UI {
	var msgs []app.UI
	last := v.lastAnswer()
	_, failed, again := chatstream.RetryTurns(v.turns)
	for i, t := range v.turns {
		rev, id := 0, ""
		if t.Answer != nil {
			rev = t.Answer.Rev
		}
		if t.Answer != nil && t.Answer == last {
			id = "chat-metrics" // the latest answer's metrics, shown once, under it
		}
		m := chatstream.NewMessage(t, i, rev).WithMetricsID(id)
		if again && t == failed && v.live == nil {
			m = m.WithRetry(v.onRetry)
		}
		msgs = append(msgs, m)
	}
	return app.Div().ID("chat-view").Class("chat-view").Body(
		v.renderSettings(),
		app.Div().Class("chat-log").Role("log").Aria("live", "polite").Body(
			app.If(len(msgs) == 0, func() app.UI {
				return app.P().Class("chat-empty muted").Text("Ask for a web app (\"a todo list\", \"a sortable table of 20 products\"), attach an image, or define a tool and mention it. Answers stream in as Markdown.")
			}),
			app.Div().Class("chat-msgs").Body(msgs...),
		),
		app.If(v.problem != "", func() app.UI { return app.P().Class("chat-error alert alert-error").Role("alert").Text(v.problem) }),
		app.Div().Class("chat-link").Body(
			app.Button().Type("button").ID("chat-copy-link").Class("btn btn-small").
				Title("Copy a link to this chat: its settings, the conversation so far and the draft (never a key)").
				Text(copyLinkText(v.linkCopied)).OnClick(v.onCopyLink),
			app.Span().ID("chat-link-note").Class("muted").Role("status").Text(v.linkNote),
		),
		v.renderRequest(),
		newChatComposer(v.live != nil, v.onSend, v.onStop).draft(v.draft, v.onDraft),
	)
}

// lastAnswer is the latest answer, or nil.
func (v *chatView) lastAnswer() *chatstream.Answer {
	for i := len(v.turns) - 1; i >= 0; i-- {
		if v.turns[i].Answer != nil {
			return v.turns[i].Answer
		}
	}
	return nil
}

func (v *chatView) renderSettings() app.UI {
	s := v.settings
	return app.Details().Class("chat-settings panel").Open(true).Body(
		app.Summary().Class("panel-head").Text("Conversation settings"),
		app.Div().Class("chat-settings-grid").Body(
			app.Label().Class("field").Body(
				app.Span().Class("field-name").Text("model"),
				app.Input().ID("chat-model").Class("input mono").Value(s.Model).Attr("spellcheck", "false").OnChange(v.onModel),
			),
			app.Label().Class("field chat-stream-field").Body(
				app.Input().ID("chat-stream").Type("checkbox").Checked(s.Stream).OnChange(v.onStream),
				app.Span().Text(" stream (Server-Sent Events)"),
			),
			app.Label().Class("field").Body(
				app.Span().Class("field-name").Text("tool_choice"),
				app.Select().ID("chat-tool-choice").Class("input").OnChange(v.onToolChoice).Body(
					app.Option().Value("auto").Selected(s.ToolChoice == "auto").Text("auto"),
					app.Option().Value("required").Selected(s.ToolChoice == "required").Text("required"),
					app.Option().Value("none").Selected(s.ToolChoice == "none").Text("none"),
				),
			),
			app.Button().Type("button").ID("chat-clear").Class("btn btn-quiet").Text("New conversation").OnClick(v.onClear),
			app.Label().Class("field chat-half").Body(
				app.Span().Class("field-name").Text("system prompt"),
				app.Textarea().ID("chat-system").Class("input").Rows(2).Placeholder("You are a helpful assistant that writes single-file web apps.").
					Text(s.System).OnChange(v.onSystem),
			),
			app.Div().Class("field chat-half").Body(
				app.Div().Class("field-head").Body(
					app.Label().Class("field-name").For("chat-tools").Text("tools (JSON)"),
					app.Button().Type("button").ID("chat-tools-example").Class("btn btn-link btn-small").Text("fill in an example").OnClick(v.onToolsExample),
				),
				app.Textarea().ID("chat-tools").Class("input mono").Rows(2).Attr("spellcheck", "false").
					Placeholder(`[{"type":"function","function":{"name":…,"parameters":{…}}}]`).Text(s.Tools).OnChange(v.onTools).
					Aria("invalid", ui.BoolAttr(v.toolsProblem != "")).Aria("describedby", ui.DescribedBy(v.toolsProblem != "", "chat-tools-error")),
				app.If(v.toolsProblem != "", func() app.UI {
					return app.P().ID("chat-tools-error").Class("field-error").Role("alert").Text(v.toolsProblem)
				}),
			),
		),
	)
}
