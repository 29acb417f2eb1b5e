package chatstream

import (
	"encoding/json"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/sse"
	"loupe/app/ui"
)

// ToolResultAction is the action a tool call card posts when the user answers the call;
// the chat view handles it.
const ToolResultAction = "loupe-chat-tool-result"

// ToolResult is the value of a ToolResultAction.
type ToolResult struct {
	Answer       *Answer // the answer that made the call
	CallID, Name string  // the call's id and function name
	Result       string  // the tool's result, as typed
}

// toolCallCard shows one tool call of an answer: the function, its id, its arguments (as
// they arrive, then formatted), and once the answer is over a field to answer it with the
// tool's result, which continues the conversation.
type toolCallCard struct {
	app.Compo

	// Call is the tool call; Answer the answer holding it.
	Call   sse.ToolCall
	Answer *Answer
	// CanAnswer is true once the answer is over and the call has no result yet.
	CanAnswer bool

	result string
}

func newToolCallCard(c sse.ToolCall, a *Answer, canAnswer bool) *toolCallCard {
	return &toolCallCard{Call: c, Answer: a, CanAnswer: canAnswer}
}

// onResult keeps the result being typed.
func (c *toolCallCard) onResult(ctx app.Context, e app.Event) {
	c.result = ctx.JSSrc().Get("value").String()
}

// onSend answers the call.
func (c *toolCallCard) onSend(ctx app.Context, e app.Event) {
	if !c.CanAnswer {
		return
	}
	result := c.result
	if result == "" {
		result = "{}"
	}
	ctx.NewActionWithValue(ToolResultAction, ToolResult{Answer: c.Answer, CallID: c.Call.ID, Name: c.Call.Name, Result: result})
}

// onKey sends the result on Ctrl+Enter.
func (c *toolCallCard) onKey(ctx app.Context, e app.Event) {
	if e.Get("key").String() == "Enter" && (e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()) {
		e.PreventDefault()
		c.result = ctx.JSSrc().Get("value").String()
		c.onSend(ctx, e)
	}
}

// Render implements app.Composer.
func (c *toolCallCard) Render() app.UI {
	args := c.Call.Arguments
	valid := json.Valid([]byte(args))
	if f, ok := ui.FormatJSON(args); ok {
		args = f
	}
	state := "answered"
	switch {
	case c.Answer != nil && c.Answer.Streaming:
		state = "arguments arriving…"
	case c.CanAnswer:
		state = "waiting for your result"
	}
	return app.Article().Class("tool-call-card").DataSet("call", c.Call.ID).Body(
		app.Header().Class("tool-call-head").Body(
			app.Span().Class("badge badge-accent").Text("tool call"),
			app.Code().Class("tool-call-name").Text(c.Call.Name),
			app.Span().Class("muted mono tool-call-id").Text(c.Call.ID),
			app.Span().Class("spacer"),
			app.Span().Class("muted").Text(state),
		),
		app.Pre().Class("tool-call-args mono").Text(args),
		app.If(!valid && c.Answer != nil && !c.Answer.Streaming, func() app.UI {
			return app.P().Class("field-error").Text("The arguments are not valid JSON.")
		}),
		app.If(c.CanAnswer, func() app.UI {
			return app.Div().Class("tool-result-form").Body(
				app.Label().Class("field-name").For("tool-result-"+c.Call.ID).Text("Result of "+c.Call.Name),
				app.Textarea().ID("tool-result-"+c.Call.ID).Class("input mono tool-result-input").Rows(3).
					Placeholder(`{"temperature": 21, "unit": "celsius"}`).Text(c.result).
					OnInput(c.onResult).OnKeyDown(c.onKey),
				app.Button().Type("button").Class("btn btn-primary btn-small tool-result-send").
					Text("Send result and continue").OnClick(c.onSend),
			)
		}),
	)
}
