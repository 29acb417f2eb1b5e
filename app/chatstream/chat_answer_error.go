package chatstream

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// chatAnswerError explains a failed or cut answer with the API's own message; retry, when not
// nil, is the Send again button, shown under the explanation (screen readers hear both, as the
// alert's content).
func chatAnswerError(a *Answer, retry app.UI) app.UI {
	var title, msg, hint string
	switch {
	case a.NetErr != "":
		title, msg = "No answer", a.NetErr
		hint = "The browser could not reach Loupe's server: it may be restarting, or the network is down. Check that it is running, then send again."
	case a.apiErr != nil && a.proxy != nil:
		msg = a.apiErr.Message
		title, hint = proxyErrorText(a.Status, a.proxy)
		title += " (HTTP " + strconv.Itoa(a.Status) + ")"
	case a.apiErr != nil && a.apiErr.Source == "loupe proxy":
		title, msg = "Loupe's proxy ended the stream", a.apiErr.Message
		hint = "What arrived before it is kept above."
		if a.apiErr.Check != "" {
			hint += " Check: " + a.apiErr.Check + "."
		}
	case a.apiErr != nil:
		title, msg = "Error", a.apiErr.Message
		if a.Status >= 400 {
			title = "HTTP " + strconv.Itoa(a.Status)
		}
		if a.apiErr.Code != "" {
			title += " · " + a.apiErr.Code
		}
		hint = chatErrorHint(a.Status, a.apiErr.Code)
		if a.md.Text() != "" {
			hint = "The API reported this error mid-stream; what arrived before it is kept above. " + hint
		}
	case a.Cut != "" && a.Restored:
		title, msg = "Stream cut", "This answer had been cut short when the link was made; what arrived is kept above."
		if !a.said() {
			msg = "No answer had come when the link was made."
		}
	case a.Cut != "":
		title = "Stream cut"
		msg = "The stream was cut after " + strconv.Itoa(a.tokens()) + " tokens: " + a.Cut + "."
		hint = "What arrived is kept above."
		if a.retry {
			hint += " The server sending it may have stopped or restarted: Send again asks for the whole answer anew."
		}
	default:
		return nil
	}
	return app.Div().Class("chat-error alert alert-error").Role("alert").Body(
		app.Strong().Text(title+": "),
		app.Span().Class("api-message").Text(msg),
		app.If(hint != "", func() app.UI { return app.P().Class("muted").Text(hint) }),
		app.If(retry != nil, func() app.UI { return app.Div().Class("chat-error-actions").Body(retry) }),
	)
}

// chatErrorHint says what to do about an error.
func chatErrorHint(status int, code string) string {
	switch {
	case code == "context_length_exceeded":
		return "The conversation is longer than the model's context window: start a new conversation or shorten it."
	case status == 401:
		return "The API refused the key Loupe's server holds for it; the server's configuration needs a valid key (the browser never holds one)."
	case status == 404:
		return "Check the model name in the settings."
	case status == 429:
		return "Too many requests: wait a moment, then send again."
	case status == 400:
		return "The API refused the request; its message names the field."
	case status >= 500:
		return "The API, or a server on the way to it, failed: send again now or a little later."
	}
	return ""
}

// replacedNote says, on a turn sent again, why it still shows the earlier answer.
func replacedNote(a *Answer) string {
	if a.Streaming {
		return "Sending again: the answer below was cut short and stays until the new one starts."
	}
	return "The answer below is the one cut short earlier: sending again brought no answer (see why under it)."
}
