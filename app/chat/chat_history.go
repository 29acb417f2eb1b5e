package chat

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/chatstream"
	"loupe/app/history"
	"loupe/app/op"
)

// recordChatHistory adds a request the chat sent to the history, unless it is off: form is the
// chat's link fragment (its settings and the message sent), which holds no credential.
func recordChatHistory(ctx app.Context, api *catalog.API, operation *catalog.Operation, url, form string, a *chatstream.Answer) {
	if !app.IsClient || !op.HistoryOn() || api == nil || operation == nil {
		return
	}
	e := history.NewView(api, operation, url, form)
	e.Status = a.Status
	failure := a.NetErr
	if failure == "" && a.Cut != "" {
		failure = "stream cut: " + a.Cut // the status (200) came, the answer's end did not
	}
	op.SaveHistory(ctx, e, time.Since(a.Start), a.Stopped, failure)
}

// lastQuestion is the text of the conversation's newest user message: the history's entry of a
// chat request reopens the chat with it in the composer.
func (v *chatView) lastQuestion() string {
	for i := len(v.turns) - 1; i >= 0; i-- {
		if v.turns[i].Role == "user" {
			return v.turns[i].Text
		}
	}
	return ""
}
