package op

import (
	"encoding/json"
	"net/http"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/fetch"
	"loupe/app/ui"
)

// proxyAnswer is an answer Loupe's own proxy wrote (server/proxy, errors.go): the request was
// refused before it was sent (the allow-list, the path guard, a missing credential or sign-in,
// the rate limit, a body too large) or the API could not be reached. It is told from the API's
// own answers by the X-Loupe-Error header, so that the page never says "the API refused" for
// what the API never saw.
type proxyAnswer struct {
	// Error is the proxy's sentence, Check what to look at; API the slug it names.
	Error string `json:"error"`
	Check string `json:"check"`
	API   string `json:"api"`
}

// proxyErrorOf reads ex as the proxy's own answer; ok is false for the API's.
func proxyErrorOf(ex *Exchange) (p proxyAnswer, ok bool) {
	if ex.Status < 400 || !isProxyError(ex.Headers) {
		return p, false
	}
	_ = json.Unmarshal(ex.Body, &p) // a body that is not the proxy's JSON still is its answer
	return p, true
}

// isProxyError reports whether headers mark an answer of Loupe's proxy.
func isProxyError(headers []fetch.Header) bool {
	r := fetch.Response{Headers: headers}
	return r.Header("X-Loupe-Error") == "proxy"
}

// proxyVerdict says, for a status of the proxy's own, whether the API saw the request.
func proxyVerdict(status int) (title, detail string) {
	switch status {
	case http.StatusBadGateway, http.StatusGatewayTimeout:
		return "Loupe's proxy could not get an answer from the API",
			"The request was sent, but no answer came back from the API: what follows is the proxy's, not the API's."
	case http.StatusServiceUnavailable:
		return "Loupe's proxy has nowhere to send this request",
			"The request did not reach any API: the Loupe server's configuration gives this API no address."
	}
	return "Refused by Loupe's proxy, not by the API",
		"The request was stopped by the Loupe server and never reached the API."
}

// proxyErrorView shows an answer of Loupe's proxy: who refused, its sentence, what to check.
func proxyErrorView(ex *Exchange, p proxyAnswer) app.UI {
	title, detail := proxyVerdict(ex.Status)
	msg := p.Error
	if msg == "" {
		msg = ui.Shorten(string(ex.Body), 300)
	}
	return app.Div().ID("proxy-error").Class("alert alert-error api-error").Role("alert").Body(
		app.P().Class("api-message").Text(title+": "+msg),
		app.If(p.Check != "", func() app.UI {
			return app.P().ID("proxy-error-check").Body(app.Strong().Text("Check: "), app.Text(p.Check))
		}),
		app.P().Class("api-status").Text("HTTP "+ui.Itoa(ex.Status)+" "+http.StatusText(ex.Status)+" from Loupe's proxy — "+detail),
	)
}
