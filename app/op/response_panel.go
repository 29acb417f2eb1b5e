package op

import (
	"net/http"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/fetch"
	"loupe/app/ui"
)

// Exchange is one sent request and what came back.
type Exchange struct {
	// Method and URL are what was sent.
	Method, URL string
	// Status is 0 when no response arrived (Err says why); StatusText is its reason phrase.
	Status     int
	StatusText string
	// Headers are the response headers.
	Headers []fetch.Header
	// Body is the response body, at most MaxBody bytes (Truncated says when it was longer).
	Body      []byte
	Truncated bool
	// Duration is the time from sending to the end of the body.
	Duration time.Duration
	// Err is the network failure, or the error that cut the body short.
	Err string
	// Canceled is true when the user abandoned the request.
	Canceled bool
	// Pages counts the pages "Fetch all pages" gathered into Body; 0 for a single response.
	// FromShown is true when the gathering began at a page after the first (the one shown).
	Pages     int
	FromShown bool
	// Note says why gathering pages stopped before the end of the list; empty otherwise.
	Note string
}

// responsePanel (#response) shows the last response: status, time, size, the API's error message
// first when it failed, then the body in tabs (the operation's viewer, JSON tree, raw, headers).
type responsePanel struct {
	app.Compo

	// Op is the operation the response answers; its Viewer picks the first tab.
	Op *catalog.Operation
	// Result is the last exchange, nil before the first send.
	Result *Exchange
	// Sending is true while a request is in flight.
	Sending bool
	// Progress says how far "Fetch all pages" has come while it runs; empty otherwise.
	Progress string

	tab        string
	shown      *Exchange
	prev, next *PageMove // the paging links of the shown response
	copied     bool
}

// NewResponsePanel returns the panel showing result, the last answer to a request of op (nil
// before any); sending says one is in flight, progress how far "Fetch all pages" has come.
func NewResponsePanel(op *catalog.Operation, result *Exchange, sending bool, progress string) *responsePanel {
	return &responsePanel{Op: op, Result: result, Sending: sending, Progress: progress}
}

// OnUpdate goes back to the default tab when a new response arrives.
func (r *responsePanel) OnUpdate(ctx app.Context) {
	if r.shown != r.Result {
		r.shown = r.Result
		r.tab = ""
		r.copied = false
	}
}

func (r *responsePanel) onTab(ctx app.Context, e app.Event) {
	r.tab = ctx.JSSrc().Get("dataset").Get("tab").String()
}

// onExpand opens or closes every node of the JSON tree.
func (r *responsePanel) onExpand(ctx app.Context, e app.Event) {
	open := ctx.JSSrc().Get("dataset").Get("open").String() != ""
	nodes := app.Window().Get("document").Call("querySelectorAll", "#json-tree details")
	for i := 0; i < nodes.Length(); i++ {
		nodes.Index(i).Set("open", open)
	}
}

// onCopyBody copies the response body as received.
func (r *responsePanel) onCopyBody(ctx app.Context, e app.Event) {
	if r.Result == nil {
		return
	}
	ui.WriteClipboard(ctx, string(r.Result.Body), func(app.Context) { r.copied = true })
}

// Render implements app.Composer.
func (r *responsePanel) Render() app.UI {
	ex := r.Result
	var body []app.UI
	switch {
	case ex == nil && !r.Sending:
		body = append(body, app.P().Class("empty muted").Text("Send the request to see the response here."))
	case ex == nil:
	case ex.Status == 0:
		body = append(body, networkFailure(ex))
	default:
		body = append(body, r.renderResult(ex))
	}
	return app.Section().ID("response").Class("panel response").Aria("label", "Response").Aria("busy", ui.BoolAttr(r.Sending)).Body(
		app.Div().Class("panel-head").Body(
			app.H2().Text("Response"),
			app.If(ex != nil && ex.Status != 0, func() app.UI { return statusLine(ex) }),
			app.Span().Class("spacer"),
			app.If(r.Sending, func() app.UI {
				text := "Waiting for the response…"
				if r.Progress != "" {
					text = "Fetching every page: " + r.Progress + "…"
				}
				return app.Span().ID("response-progress").Class("sending").Body(app.Span().Class("spinner").Aria("hidden", "true"), app.Text(text))
			}),
		),
		app.Div().Class("panel-body").Body(body...),
		app.Div().ID("response-announce").Class("visually-hidden").Role("status").Aria("live", "polite").Text(answerAnnouncement(ex, r.Sending)),
	)
}

// statusLine renders status, time and size.
func statusLine(ex *Exchange) app.UI {
	text := ex.StatusText
	if text == "" {
		text = http.StatusText(ex.Status)
	}
	return app.Div().Class("status-line").Body(
		app.Span().ID("response-status").Class("status status-"+ui.Itoa(ex.Status/100)).Text(ui.Itoa(ex.Status)+" "+text),
		app.Span().ID("response-time").Class("metric").Title("Time until the whole body arrived").Text(ui.HumanDuration(ex.Duration)),
		app.Span().ID("response-size").Class("metric").Title("Body size").Text(ui.HumanSize(len(ex.Body))),
		app.If(contentType(ex) != "", func() app.UI { return app.Span().Class("metric ctype").Text(contentType(ex)) }),
	)
}

// contentType is the media type of a response, without parameters.
func contentType(ex *Exchange) string {
	for _, h := range ex.Headers {
		if strings.EqualFold(h.Name, "Content-Type") {
			t, _, _ := strings.Cut(h.Value, ";")
			return strings.TrimSpace(t)
		}
	}
	return ""
}

// networkFailure explains a request that got no response.
func networkFailure(ex *Exchange) app.UI {
	if ex.Canceled {
		return app.Div().Class("alert").Role("status").Body(app.P().Text("Cancelled: the request was abandoned before the response arrived."))
	}
	return app.Div().Class("alert alert-error").Role("alert").Body(
		app.H3().Text("The request did not complete"),
		app.P().Body(app.Text("Network failure: "), app.Code().Text(ex.Err)),
		app.P().Text("The browser could not get an answer from Loupe's server (the request never reached the API). Check that the Loupe server is still running and reachable from this page, then send again."),
		app.P().Class("muted mono").Text(ex.Method+" "+ex.URL),
	)
}

func (r *responsePanel) renderResult(ex *Exchange) app.UI {
	root, isJSON := parseJSON(ex.Body)
	viewer, hasViewer := bodyViewers[r.Op.Viewer]
	tab := r.tab
	if tab == "" {
		switch {
		case hasViewer && ex.Status < 400:
			tab = "view"
		case isJSON:
			tab = "json"
		default:
			tab = "raw"
		}
	}
	var tabs []app.UI
	if hasViewer {
		tabs = append(tabs, tabButton("view", bodyViewerTab(r.Op.Viewer), tab, r.onTab))
	}
	if isJSON {
		tabs = append(tabs, tabButton("json", "JSON", tab, r.onTab))
	}
	tabs = append(tabs, tabButton("raw", "Raw", tab, r.onTab), tabButton("headers", "Headers ("+ui.Itoa(len(ex.Headers))+")", tab, r.onTab))

	var content app.UI
	switch tab {
	case "view":
		content = app.Div().Class("viewer").Body(viewer(r.Op, ex.Status, ex.Body))
	case "json":
		content = app.Div().Body(
			app.Div().Class("tree-tools").Body(
				app.Button().Type("button").Class("btn-link").DataSet("open", "1").Text("Expand all").OnClick(r.onExpand),
				app.Button().Type("button").Class("btn-link").DataSet("open", "").Text("Collapse all").OnClick(r.onExpand),
				app.Button().Type("button").Class("btn-link").Text(ui.CopyText(r.copied)).OnClick(r.onCopyBody),
			),
			jsonTree(root),
		)
	case "headers":
		var rows []app.UI
		for _, h := range ex.Headers {
			rows = append(rows, app.Tr().Body(app.Td().Class("mono h-name").Text(h.Name), app.Td().Class("mono").Body(ui.BreakableElem("span", nil, h.Value))))
		}
		content = app.Table().ID("response-headers").Class("kv").Body(app.TBody().Body(rows...))
	default:
		text := string(ex.Body)
		if isJSON {
			if f, ok := ui.FormatJSON(text); ok {
				text = f
			}
		}
		content = app.Div().Body(
			app.Div().Class("tree-tools").Body(
				app.Button().Type("button").Class("btn-link").Text(ui.CopyText(r.copied)).OnClick(r.onCopyBody),
			),
			app.Pre().ID("response-raw").Class("mono raw").Text(text),
		)
	}
	return app.Div().Class("result").Body(
		app.If(ex.Status >= 400, func() app.UI { return apiError(ex, root) }),
		app.If(ex.Err != "", func() app.UI {
			return app.P().Class("alert alert-error").Text("The body was cut short: " + ex.Err)
		}),
		app.If(ex.Note != "", func() app.UI {
			return app.P().ID("response-note").Class("alert").Role("status").Text("Not every page: " + ex.Note + ".")
		}),
		app.If(ex.Truncated, func() app.UI {
			return app.P().Class("alert").Text("The body is larger than " + ui.HumanSize(MaxBody) + "; only the beginning is shown.")
		}),
		app.If(r.Op.Pagination != nil && ex.Status < 400, func() app.UI { return r.pageBar(ex, root) }),
		app.Div().Class("tabs").Role("tablist").Aria("label", "Response body").Body(tabs...),
		app.Div().ID("tab-panel").Class("tab-panel").Role("tabpanel").Aria("labelledby", "tab-"+tab).TabIndex(0).Body(content),
	)
}

// apiError shows a failed response: the API's own message first, then status and what to do.
func apiError(ex *Exchange, root *jsonNode) app.UI {
	if p, ok := proxyErrorOf(ex); ok {
		return proxyErrorView(ex, p)
	}
	msg := errorMessage(root)
	if msg == "" && root == nil {
		msg = strings.TrimSpace(string(ex.Body))
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
	}
	hint := errorHint(ex.Headers)
	if hint == "" {
		hint = statusHint(ex.Status)
	}
	return app.Div().Class("alert alert-error api-error").Role("alert").Body(
		app.If(msg != "", func() app.UI { return app.P().Class("api-message").Text(msg) }),
		app.P().Class("api-status").Text("HTTP "+ui.Itoa(ex.Status)+" "+http.StatusText(ex.Status)+" — "+hint),
	)
}

// errorMessage digs the API's message out of an error body.
func errorMessage(root *jsonNode) string {
	if root == nil {
		return ""
	}
	for _, path := range []string{
		"error.message", "error.reason", "error.detail", "error_description", "detail", "message",
		"errors.0.message", "errors.0.detail", "errors.0", "title", "msg", "error.type", "error",
	} {
		if n := root.find(path); n != nil && n.kind == 's' && n.text != "" {
			return n.text
		}
	}
	return ""
}

// statusHint says what to check for an error status.
func statusHint(status int) string {
	switch status {
	case 400, 422:
		return "the API refused the request: check the fields its message names."
	case 401:
		return "the API did not accept the credential Loupe's server sent. Check the server's configuration for this API (the browser never holds a credential)."
	case 403:
		return "the credential the server holds is not allowed to do this; check its scopes or permissions."
	case 404:
		return "nothing was found for this request: check the values in its path and query; the API's message may name the one it could not find."
	case 405:
		return "the API does not allow this method here."
	case 408:
		return "the API timed out waiting (for the condition asked for, or for the request): its body says how far it got; send again or wait for less."
	case 409:
		return "the request conflicts with the current state of the resource."
	case 413:
		return "the request body is too large."
	case 429:
		return "too many requests: wait a moment, then send again."
	case 501:
		return "the server that answered does not implement this: its message says what to do instead."
	case 502, 503, 504:
		return "the API's server, or a gateway in front of it, could not answer: try again later."
	}
	if status >= 500 {
		return "the API failed while handling the request; try again later."
	}
	return "the API refused the request."
}
