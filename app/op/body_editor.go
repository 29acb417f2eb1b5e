package op

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/request"
	"loupe/app/ui"
)

// RenderBody renders the request body editor its content type calls for: a form body's fields
// (urlencoded, multipart), a text box for text and XML, a file picker for a binary body, and
// the JSON editor otherwise (and for a form body that is not an object of fields).
func (f ParamFields) RenderBody() app.UI {
	form := f.Form()
	switch form.Body().Kind() {
	case catalog.BodyURLEncoded, catalog.BodyMultipart:
		if fields, ok := request.FormFields(form.Body(), form.State.Body); ok {
			return f.renderFormBody(fields)
		}
	case catalog.BodyText, catalog.BodyXML:
		return f.renderTextBody()
	case catalog.BodyBinary:
		if _, named := request.FileRefName(form.State.Body); named || strings.TrimSpace(form.State.Body) == "" {
			return f.renderFileBody()
		}
		return f.renderTextBody()
	}
	return f.renderJSONBody()
}

// bodyErrorList renders the body's errors as a list, at most eight.
func bodyErrorList(errs []request.FieldError) []app.UI {
	var out []app.UI
	for i, e := range errs {
		if i == 8 {
			out = append(out, app.Li().Text("… and "+ui.Itoa(len(errs)-i)+" more"))
			break
		}
		if e.Path != "" {
			out = append(out, app.Li().Body(app.Code().Text(e.Path), app.Text(": "+e.Message)))
		} else {
			out = append(out, app.Li().Text(e.Message))
		}
	}
	return out
}

// bodyLegend is the legend of the body's fieldset: "Body", marked when required.
func bodyLegend(b *catalog.RequestBody) app.UI {
	return app.Legend().Body(
		app.Text("Body"),
		app.If(b.Required, func() app.UI { return app.Span().Class("required").Title("required").Text("*") }),
	)
}

// renderJSONBody renders the JSON editor: a textarea prefilled from the example, checked
// against the schema on every keystroke, with the wrong fields named under it.
func (f ParamFields) renderJSONBody() app.UI {
	form := f.Form()
	b := form.Body()
	invalid := len(form.BodyErrs) > 0
	errs := bodyErrorList(form.BodyErrs)
	label := "JSON"
	if k := b.Kind(); k == catalog.BodyURLEncoded || k == catalog.BodyMultipart {
		label = "Fields as JSON"
	}
	rows := strings.Count(form.State.Body, "\n") + 2
	rows = min(max(rows, 6), 28)
	describedBy := "body-help"
	if invalid {
		describedBy = "body-error body-help"
	}
	cls := "field body-field"
	if invalid {
		cls += " invalid"
	}
	return app.FieldSet().Class("params body").Body(
		bodyLegend(b),
		app.Div().Class(cls).DataSet("param", "body").Body(
			app.Div().Class("field-head").Body(
				app.Label().For("body-editor").Class("field-name").Text(label),
				f.renderBodyType(b),
				app.If(b.Schema != nil && b.Schema.Ref != "", func() app.UI { return app.Span().Class("schema-ref").Text(b.Schema.Ref) }),
				app.Span().Class("spacer"),
				app.Button().ID("body-format").Type("button").Class("btn-link").Text("Format").OnClick(f.onBodyFormat),
				app.Button().Type("button").Class("btn-link").Text("Reset to example").OnClick(f.onBodyReset),
			),
			f.renderBodyCarried(),
			app.Textarea().ID("body-editor").Class("input mono code-editor").Rows(rows).
				Spellcheck(false).Attr("autocapitalize", "off").Attr("autocorrect", "off").
				Attr("value", form.State.Body).Text(form.State.Body).DataSet(shownAttr, form.State.Body).
				Aria("invalid", ui.BoolAttr(invalid)).Aria("describedby", describedBy).
				OnInput(f.onBodyInput),
			app.Div().ID("body-error").Class("field-error").Body(
				app.If(len(errs) > 0, func() app.UI { return app.Ul().Body(errs...) }),
			),
			app.Div().ID("body-help").Class("field-help").Body(
				app.P().Class("editor-keys").Text("Tab indents, Shift+Tab outdents; Esc then Tab leaves the editor."),
				ui.HTML("prose small", b.DescriptionHTML),
				app.If(b.Schema != nil, func() app.UI { return schemaOutline(b.Schema) }),
			),
		),
	)
}

// schemaOutline lists an object schema's properties (two levels) in a collapsed block.
func schemaOutline(s *catalog.Schema) app.UI {
	if s == nil || len(s.Properties) == 0 {
		return nil
	}
	return app.Details().Class("schema-outline").Body(
		app.Summary().Text("Schema"),
		schemaProps(s, 0),
	)
}

func schemaProps(s *catalog.Schema, depth int) app.UI {
	if s != nil && s.Type == "array" {
		s = s.Items
	}
	if s == nil || len(s.Properties) == 0 || depth > 2 {
		return nil
	}
	var items []app.UI
	for _, prop := range s.Properties {
		ps := prop.Schema
		if ps == nil {
			ps = &catalog.Schema{}
		}
		t := ps.Type
		if ps.Type == "array" && ps.Items != nil {
			t = ps.Items.Type + "[]"
		}
		var enum []string
		for _, e := range ps.Enum {
			enum = append(enum, ui.PlainText(string(e.Value)))
		}
		items = append(items, app.Li().Body(
			app.Code().Class("prop-name").Text(prop.Name),
			app.If(prop.Required, func() app.UI { return app.Span().Class("required").Text("*") }),
			app.Span().Class("field-type").Text(" "+t),
			app.If(len(enum) > 0, func() app.UI { return app.Span().Class("muted").Text(" one of " + strings.Join(enum, ", ")) }),
			app.If(ps.DescriptionHTML != "", func() app.UI { return app.Span().Class("muted").Text(" — " + ui.PlainText(ps.DescriptionHTML)) }),
			schemaProps(ps, depth+1),
		))
	}
	return app.Ul().Class("props").Body(items...)
}
