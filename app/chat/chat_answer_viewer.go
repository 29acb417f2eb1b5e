package chat

import (
	"bytes"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/op"
	"loupe/app/sse"
	"loupe/app/ui"
)

// The chat operation's page has its own view (chat_view.go) and never shows a response panel.
// Where a chat completion is shown in one (a walkthrough step), this viewer folds the answer,
// streamed or not, into its text, tool calls and finish reason.
func init() { op.AddBodyViewer(catalog.ViewerChat, "", chatAnswerViewer) }

// chatAnswerViewer renders a chat completion body: an event stream or a chat.completion.
func chatAnswerViewer(op *catalog.Operation, status int, body []byte) app.UI {
	c, events := foldChat(body)
	var calls []app.UI
	for _, tc := range c.ToolCalls() {
		calls = append(calls, app.Li().Body(
			app.Code().Text(tc.Name), app.Text("("), app.Code().Text(tc.Arguments), app.Text(") "),
			app.Span().Class("muted").Text("id "+tc.ID)))
	}
	meta := "finish_reason " + c.FinishReason
	if events > 0 {
		meta = "folded from " + ui.Plural(events, "stream event", "stream events") + " · " + meta
	}
	return app.Div().Class("chat-answer-viewer").Body(
		app.P().Class("muted").Text(meta),
		app.If(c.Err != nil, func() app.UI { return app.P().Class("field-error").Text(c.Err.Error()) }),
		app.If(c.Content() != "", func() app.UI { return app.Pre().Class("mono chat-answer-text").Text(c.Content()) }),
		app.If(len(calls) > 0, func() app.UI {
			return app.Div().Body(app.P().Text("Tool calls:"), app.Ul().Class("chat-answer-calls").Body(calls...))
		}),
	)
}

// foldChat folds a body into the answer; events counts the stream's events (0 for a
// chat.completion body).
func foldChat(body []byte) (*sse.Chat, int) {
	var c sse.Chat
	trimmed := bytes.TrimSpace(body)
	if !bytes.HasPrefix(trimmed, []byte("data:")) && !bytes.HasPrefix(trimmed, []byte("event:")) {
		c.AddCompletion(body)
		return &c, 0
	}
	var p sse.Parser
	evs := append(p.Feed(body), p.Finish()...)
	for _, ev := range evs {
		c.Add(ev)
	}
	return &c, len(evs)
}
