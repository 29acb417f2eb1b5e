package chat

import (
	"errors"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/chatstream"
)

// onRetry is the Send again button of the last answer, when it failed in a way the same
// request may mend (a cut stream, no response, a server's failure): the failed turn makes way
// for a new answer to the same conversation, with the same settings. The message component
// calls it from its own button, so the change is dispatched on the view's context.
func (v *chatView) onRetry(ctx app.Context) {
	v.ctx.Dispatch(func(ctx app.Context) {
		before, failed, ok := chatstream.RetryTurns(v.turns)
		if !ok || v.live != nil {
			return
		}
		if _, err := chatstream.Body(v.settings, before); err != nil {
			// The settings changed since (tools that are not JSON): say so, keep the turn.
			if errors.Is(err, chatstream.ErrBadTools) {
				v.toolsProblem = err.Error()
			} else {
				v.problem = err.Error()
			}
			return
		}
		v.turns = before
		v.request(failed)
		// The button is gone with the failed turn: the message field takes the focus, and the
		// question comes into view with the answer growing under it.
		ctx.Defer(func(app.Context) {
			focusMessageField()
			revealLastQuestion()
		})
	})
}

// focusMessageField puts the focus in the composer's message field, without scrolling to it.
func focusMessageField() {
	in := app.Window().GetElementByID("chat-input")
	if !in.Truthy() {
		return
	}
	opts := app.Window().Get("Object").New()
	opts.Set("preventScroll", true)
	in.Call("focus", opts)
}

// sendTurns is the conversation the next request sends, as the request preview shows it:
// with a message being typed, the conversation and that message (Send); with none, when the
// last answer can be sent again, the conversation before it (Send again, again is true).
func (v *chatView) sendTurns() (turns []*chatstream.Turn, again bool) {
	if strings.TrimSpace(v.draft) == "" && v.live == nil {
		if before, _, ok := chatstream.RetryTurns(v.turns); ok {
			return before, true
		}
	}
	turns = v.turns[:len(v.turns):len(v.turns)]
	if v.draft != "" {
		turns = append(turns, &chatstream.Turn{Role: "user", Text: v.draft})
	}
	return turns, false
}
