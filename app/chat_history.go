package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/history"
)

// recordChatHistory adds a request the chat sent to the history, unless it is off: form is the
// chat's link fragment (its settings and the message sent), which holds no credential.
func recordChatHistory(ctx app.Context, api *catalog.API, op *catalog.Operation, url, form string, a *chatAnswer) {
	if !app.IsClient || !historyOn() || api == nil || op == nil {
		return
	}
	e := history.NewView(api, op, url, form)
	e.Status = a.status
	saveHistory(ctx, e, time.Since(a.start), a.stopped, a.netErr)
}

// lastQuestion is the text of the conversation's newest user message: the history's entry of a
// chat request reopens the chat with it in the composer.
func (v *chatView) lastQuestion() string {
	for i := len(v.turns) - 1; i >= 0; i-- {
		if v.turns[i].role == "user" {
			return v.turns[i].text
		}
	}
	return ""
}
