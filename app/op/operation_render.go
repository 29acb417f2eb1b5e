package op

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/request"
	"loupe/app/ui"
)

// Render implements app.Composer: the form with the request preview and the response (or the
// operation's own view when its viewer replaces them, chat), then the docs.
func (p *operationPage) Render() app.UI {
	op := p.Op
	notice := app.If(p.notice != "", func() app.UI { return ui.NewNotice(p.notice, p.onDismissNotice) })
	if view, ok := operationViews[op.Viewer]; ok {
		return app.Article().Class("page op-page").DataSet("op", p.key()).Body(
			p.renderHead(),
			notice,
			app.Div().Class("op-view").Body(view(op, p.API)),
			p.renderDocs(),
		)
	}
	// The form comes first, right under the summary, with the preview and the response beside
	// it (one column on narrow screens); the reference text follows, the page's whole width,
	// so a long guide or settings table never pushes the form out of the first screen.
	var left []app.UI
	for _, n := range formNotes {
		left = append(left, n(p.API, op))
	}
	left = append(left, p.renderForm())
	return app.Article().Class("page op-page").DataSet("op", p.key()).Body(
		p.renderHead(),
		notice,
		app.Div().Class("op-grid").Body(
			app.Section().Class("op-form-col").Aria("label", "Request").Body(left...),
			app.Section().Class("op-side-col").Aria("label", "Preview and response").Body(
				NewRequestPreview(p.API, op, request.Preview(op, p.base(), p.State), p.held(), p.Invalid()),
				NewResponsePanel(op, p.result, p.Sending, p.progress),
				sidePanel(p.API, op, p.Sending),
			),
		),
		p.renderDocs(),
	)
}

// renderHead renders the breadcrumb, the method and path, the summary and the badges.
func (p *operationPage) renderHead() app.UI {
	op := p.Op
	var badges []app.UI
	if op.Deprecated {
		badges = append(badges, app.Span().Class("badge badge-warn").Text("deprecated"))
	}
	if op.Source == catalog.SourcePublicAPI {
		badges = append(badges, app.Span().Class("badge").Title("Not in the seed documents; follows the real public API").Text("public API"))
	}
	if op.Streaming {
		badges = append(badges, app.Span().Class("badge badge-accent").Text("streams"))
	}
	for _, t := range op.Tags {
		badges = append(badges, app.Span().Class("badge badge-tag").Text(t))
	}
	return app.Header().Class("op-head").Body(
		app.P().Class("crumbs").Body(
			app.A().Href(ui.Href("/")).Text("APIs"), app.Text(" / "),
			app.A().Href(ui.Href("/"+p.API.Slug)).Text(p.API.Title), app.Text(" / "),
			app.Code().Class("op-id").Text(op.ID),
		),
		app.H1().Class("op-title").Body(
			ui.MethodBadge(op.Method),
			app.Code().Class("op-path").Body(pathParts(op.Path)...),
		),
		app.If(op.Summary != "", func() app.UI { return app.P().Class("lede").Text(op.Summary) }),
		app.If(len(badges) > 0, func() app.UI { return app.Div().Class("badges").Body(badges...) }),
	)
}

// pathParts renders a path template with its {parameters} highlighted.
func pathParts(path string) []app.UI {
	var out []app.UI
	for path != "" {
		i := strings.IndexByte(path, '{')
		j := strings.IndexByte(path, '}')
		if i < 0 || j < i {
			out = append(out, app.Text(path))
			break
		}
		if i > 0 {
			out = append(out, app.Text(path[:i]))
		}
		out = append(out, app.Span().Class("path-param").Text(path[i:j+1]))
		path = path[j+1:]
	}
	return out
}

// renderDocs renders the description and the documented responses.
func (p *operationPage) renderDocs() app.UI {
	op := p.Op
	var responses []app.UI
	for _, r := range op.Responses {
		cls := "status status-" + r.Status[:1]
		responses = append(responses, app.Li().Body(
			app.Span().Class(cls).Text(r.Status),
			app.If(r.ContentType != "", func() app.UI { return app.Code().Class("ctype").Text(r.ContentType) }),
			app.If(r.Schema != nil && r.Schema.Ref != "", func() app.UI { return app.Span().Class("schema-ref").Text(r.Schema.Ref) }),
			ui.HTML("prose small", r.DescriptionHTML),
			app.If(len(r.Example) > 0, func() app.UI {
				text, _ := ui.FormatJSON(string(r.Example))
				return app.Details().Class("example").Body(
					app.Summary().Text("Example"),
					app.Pre().Class("mono example-body").Text(text),
				)
			}),
		))
	}
	return app.Section().Class("op-docs").Aria("label", "Documentation").Body(
		app.If(op.DescriptionHTML != "", func() app.UI { return app.H2().Class("op-docs-title").Text("About " + op.ID) }),
		ui.HTML("prose", op.DescriptionHTML),
		app.If(len(responses) > 0, func() app.UI {
			return app.Details().Class("responses-doc").Body(
				app.Summary().Text("Responses"),
				app.Ul().Body(responses...),
			)
		}),
	)
}

// renderForm renders the form: fields grouped by location, the body editor and the actions.
func (p *operationPage) renderForm() app.UI {
	groups := []struct{ in, title string }{
		{"path", "Path parameters"}, {"query", "Query parameters"}, {"header", "Headers"}, {"cookie", "Cookies"},
	}
	var sections []app.UI
	view := p.fields()
	for _, g := range groups {
		var fields []app.UI
		for i := range p.Op.Parameters {
			if prm := &p.Op.Parameters[i]; prm.In == g.in {
				fields = append(fields, view.RenderField(prm))
			}
		}
		if len(fields) > 0 {
			sections = append(sections, app.FieldSet().Class("params").Body(
				app.Legend().Text(g.title),
				app.Div().Class("fields").Body(fields...),
			))
		}
	}
	if len(sections) == 0 && p.Op.Body == nil {
		sections = append(sections, app.P().Class("muted").Text("This operation takes no parameters."))
	}
	invalid := p.Invalid()
	var status, statusClass string
	blocked := !p.Sending && invalid > 0 && p.showMissing
	switch {
	case p.Sending:
		status = "Sending…"
	case blocked:
		status, statusClass = ui.Plural(invalid, "field needs", "fields need")+" fixing before sending.", " is-error"
	}
	return app.Form().ID("op-form").Attr("novalidate", "novalidate").Aria("label", p.Op.ID+" request").OnSubmit(p.onSubmit).Body(
		app.Div().Class("form-sections").Body(sections...),
		app.If(p.Op.Body != nil, func() app.UI { return view.RenderBody() }),
		app.Div().Class("form-actions").Body(
			app.Button().ID("send").Type("submit").Class("btn btn-primary").
				Aria("busy", ui.BoolAttr(p.Sending)).Title("Send (Ctrl+Enter)").Body(
				app.If(p.Sending, func() app.UI { return app.Span().Class("spinner").Aria("hidden", "true") }),
				app.Text("Send"),
				app.Kbd().Class("shortcut").Aria("hidden", "true").Text("Ctrl ↵"),
			),
			app.If(p.Sending, func() app.UI {
				return app.Button().Type("button").Class("btn").Title("Cancel (Esc)").Text("Cancel").OnClick(p.onCancel)
			}),
			app.Button().ID("copy-link").Type("button").Class("btn").Text(copyLabel(p.link != "", p.linkCopied)).
				Title("Copy a link to this filled form (it never holds a credential)").OnClick(p.onCopyLink),
			app.Button().ID("reset-form").Type("button").Class("btn btn-quiet").Text("Reset").
				Title("Put every field back to its default").OnClick(p.onResetForm),
			app.Span().ID("form-status").Class("form-status"+statusClass).Aria("live", "polite").Text(status),
			// Exploring how an API answers bad input is normal use: the checks say what is wrong,
			// and this sends the request as typed all the same.
			// It stays (disabled) while its request is under way: an event's context dies with
			// the element it came from, and the answer must still reach the page.
			app.If(invalid > 0 && p.showMissing, func() app.UI {
				return app.Button().ID("send-anyway").Type("button").Class("btn btn-small").Disabled(p.Sending).
					Title("Send the request as typed, without Loupe's checks: see how the API answers it").
					Text("Send anyway").OnClick(p.onSendAnyway)
			}),
		),
		app.If(p.linkNote != "", func() app.UI {
			return app.P().ID("link-note").Class("link-note muted").Role("status").Text(p.linkNote)
		}),
		app.If(p.link != "", func() app.UI {
			return app.Div().Class("permalink").Body(
				app.Label().For("permalink").Text("Link"),
				app.Input().ID("permalink").Type("text").ReadOnly(true).Value(p.link).
					OnFocus(func(ctx app.Context, e app.Event) { ctx.JSSrc().Call("select") }),
			)
		}),
	)
}

func copyLabel(shown, copied bool) string {
	switch {
	case copied:
		return "Link copied"
	case shown:
		return "Copy link again"
	}
	return "Copy link"
}
