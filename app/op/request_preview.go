package op

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/request"
	"loupe/app/snippet"
	"loupe/app/ui"
)

// requestPreview shows the exact HTTP request the form sends (request line, query, headers with
// the credentials the server adds, body) and the same request as code to copy (snippetPanel).
type requestPreview struct {
	app.Compo

	// API is the request's API: its slug and real servers, for the snippets.
	API *catalog.API
	// Op is the request's operation, for the official clients' snippets; nil is allowed.
	Op *catalog.Operation
	// Req is the request the form describes (request.Preview), never nil.
	Req *request.Request
	// Held are the credentials the proxy adds.
	Held []snippet.Credential
	// Problems counts the invalid fields; the preview says the request cannot be sent yet.
	Problems int
}

// NewRequestPreview returns the preview of req, a request of op (nil allowed) of api; held are the
// credentials the proxy adds and problems counts the form's invalid fields.
func NewRequestPreview(api *catalog.API, op *catalog.Operation, req *request.Request, held []snippet.Credential, problems int) *requestPreview {
	return &requestPreview{API: api, Op: op, Req: req, Held: held, Problems: problems}
}

// OnMount shows the curl command again when the page's API is pointed at its real server or
// back at the sandbox (static explorer): the action's dispatch updates the preview.
func (r *requestPreview) OnMount(ctx app.Context) {
	ctx.Handle(ui.APIModeAction, func(app.Context, app.Action) {})
}

// origin is the server's origin, for the snippets.
func origin() string {
	if app.IsClient {
		return app.Window().Get("location").Get("origin").String()
	}
	return "http://localhost:8080"
}

// Render implements app.Composer.
func (r *requestPreview) Render() app.UI {
	req := r.Req
	host := strings.TrimPrefix(strings.TrimPrefix(origin(), "https://"), "http://")
	lines := []app.UI{
		app.Div().Class("req-line").Body(
			app.Span().Class("req-method method-text-"+strings.ToLower(req.Method)).Text(req.Method),
			ui.BreakableElem("span", []ui.Attr{{Name: "class", Value: "req-url"}}, req.URL),
			app.Span().Class("muted req-proto").Text("HTTP/1.1"),
		),
		headerLine("req-header", "Host", host),
	}
	for _, h := range req.Headers {
		lines = append(lines, headerLine("req-header", h.Name, h.Value))
	}
	for _, c := range r.Held {
		if c.In == "header" {
			lines = append(lines, headerLine("req-header held", c.Name, heldShown(c.Value)))
		}
	}
	var query []app.UI
	for _, q := range req.Query {
		query = append(query, app.Tr().Body(app.Td().Class("mono").Text(q.Name), app.Td().Class("mono").Body(ui.BreakableElem("span", nil, q.Value))))
	}
	for _, c := range r.Held {
		if c.In == "query" {
			query = append(query, app.Tr().Class("held").Body(app.Td().Class("mono").Text(c.Name), app.Td().Class("mono").Text(heldShown(c.Value)+heldBy())))
		}
	}
	return app.Section().ID("preview").Class("panel preview").Aria("label", "Request preview").Body(
		app.Div().Class("panel-head").Body(
			app.H2().Text("Request"),
			app.Span().Class("spacer"),
			app.If(r.Problems > 0, func() app.UI {
				return app.Span().Class("badge badge-warn").Text(ui.Plural(r.Problems, "problem", "problems"))
			}),
		),
		app.Div().Class("panel-body").Body(
			app.Div().Class("http-preview mono").Body(lines...),
			app.If(len(query) > 0, func() app.UI {
				return app.Table().Class("kv query-table").Body(
					app.Caption().Text("Query"),
					app.TBody().Body(query...),
				)
			}),
			app.If(req.Body != nil, func() app.UI {
				return ui.BreakableElem("pre", []ui.Attr{{Name: "class", Value: "body-preview mono"}}, req.BodyText())
			}),
		),
		newSnippetPanel(r.API, r.Op, req, r.Held),
	)
}

// headerLine renders "Name: value" as spans only, so that the prerendered HTML's indentation
// (whitespace between elements) is ignored by the flex line.
func headerLine(class, name, value string) app.UI {
	return app.Div().Class(class).Body(
		app.Span().Class("h-name").Text(name+":"),
		ui.BreakableElem("span", []ui.Attr{{Name: "class", Value: "h-value"}}, value),
	)
}

// tabButton renders one tab of a tab list; the handler reads data-tab.
func tabButton(id, label, current string, h app.EventHandler) app.UI {
	selected := id == current
	cls := "tab"
	if selected {
		cls += " selected"
	}
	tabIndex := -1 // roving tabindex: Tab reaches the selected tab, the arrow keys the others
	if selected {
		tabIndex = 0
	}
	return app.Button().Type("button").Class(cls).Role("tab").DataSet("tab", id).
		Aria("selected", ui.BoolText(selected)).Aria("controls", "tab-panel").ID("tab-" + id).TabIndex(tabIndex).
		Text(label).OnClick(h).OnKeyDown(ui.OnTabKey)
}

// heldShown is how a credential the request will carry is shown. In the static explorer no
// server holds it: the in-browser sandbox adds its public sandbox key, or a real API gets the
// key typed in this tab.
func heldShown(v string) string {
	if ui.StaticMode() {
		return strings.ReplaceAll(v, snippet.HeldValue, "‹the sandbox key, or the key typed in this tab›")
	}
	return v
}

// heldBy says who adds a credential shown in the preview.
func heldBy() string {
	if ui.StaticMode() {
		return " (added in your browser)"
	}
	return " (added by the server)"
}
