package chatstream

import (
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/ui"
)

// chatRawView is an answer's Raw view, like the Raw tab of every other operation's response:
// behind a Raw button, the request that was sent (its line, headers and JSON body) and the
// response as received (status, headers and the body as it came: for a stream, the SSE events
// as text, in order, with their data). Its text is rendered only while it is open, so a
// closed view costs a streaming answer nothing.
type chatRawView struct {
	app.Compo

	// Answer is the answer shown; Index its message's position (it names the view's elements);
	// Rev the answer's revision, which changes whenever more of it arrives.
	Answer *Answer
	Index  int
	Rev    int

	seen   *Answer
	open   bool
	copied string // "request" or "response" just after its Copy
}

func newChatRawView(a *Answer, index, rev int) *chatRawView {
	return &chatRawView{Answer: a, Index: index, Rev: rev}
}

// OnUpdate closes the view when its slot shows another answer.
func (v *chatRawView) OnUpdate(ctx app.Context) {
	if v.Answer != v.seen {
		v.seen, v.open, v.copied = v.Answer, false, ""
	}
}

// Render implements app.Composer.
func (v *chatRawView) Render() app.UI {
	a := v.Answer
	v.seen = a
	if a == nil {
		return app.Div().Class("chat-raw")
	}
	id := "chat-raw-" + strconv.Itoa(v.Index)
	toggle := app.Button().Type("button").Class("btn btn-small chat-raw-toggle").
		Aria("expanded", ui.BoolText(v.open)).Aria("controls", id).
		Title("The request that was sent and the response as received").
		Text(map[bool]string{true: "Hide raw", false: "Raw"}[v.open]).OnClick(v.onToggle)
	if !v.open {
		return app.Div().Class("chat-raw").Body(toggle)
	}
	request, response, truncated := a.rawText()
	if request == "" {
		request = "(not sent yet)"
	}
	if response == "" {
		response = "(no response yet)"
		if a.NetErr != "" {
			response = "(no response: " + a.NetErr + ")"
		}
	}
	section := func(key, title, text string) app.UI {
		return app.Div().Class("chat-raw-part").Role("group").Aria("label", title).Body(
			app.Div().Class("tree-tools").Body(
				app.Strong().Text(title),
				app.Span().Class("spacer"),
				app.Button().Type("button").Class("btn-link").DataSet("part", key).
					Text(ui.CopyText(v.copied == key)).OnClick(v.onCopy),
			),
			app.Pre().ID(id+"-"+key).Class("mono raw").TabIndex(0).Text(text),
		)
	}
	streamTitle := "Response as received"
	if a.Streaming {
		streamTitle += " (still arriving)"
	}
	return app.Div().Class("chat-raw").Body(
		toggle,
		app.Div().ID(id).Class("chat-raw-body").Body(
			section("request", "Request sent", request),
			section("response", streamTitle, response),
			app.If(truncated, func() app.UI {
				return app.P().Class("alert").Text("The response is larger than " + ui.HumanSize(chatMaxBody) + "; only its beginning is kept here.")
			}),
		),
	)
}

func (v *chatRawView) onToggle(ctx app.Context, e app.Event) { v.open = !v.open }

// onCopy copies the request or the response as shown.
func (v *chatRawView) onCopy(ctx app.Context, e app.Event) {
	key := ctx.JSSrc().Get("dataset").Get("part").String()
	request, response, _ := v.Answer.rawText()
	text := request
	if key == "response" {
		text = response
	}
	ui.WriteClipboard(ctx, text, func(ctx app.Context) {
		v.copied = key
		ctx.After(1500*time.Millisecond, func(app.Context) { v.copied = "" })
	})
}
