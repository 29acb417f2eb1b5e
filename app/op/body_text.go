package op

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/ui"
)

// renderTextBody renders a text, XML or raw body as a plain text box: sent exactly as typed
// (XML checked to be well-formed first). A binary body typed as text offers a file instead.
func (f ParamFields) renderTextBody() app.UI {
	form := f.Form()
	b := form.Body()
	invalid := len(form.BodyErrs) > 0
	label := "Text"
	switch b.Kind() {
	case catalog.BodyXML:
		label = "XML"
	case catalog.BodyBinary:
		label = "Raw body"
	}
	rows := min(max(strings.Count(form.State.Body, "\n")+2, 6), 28)
	describedBy := "body-help"
	if invalid {
		describedBy = "body-error body-help"
	}
	return app.FieldSet().Class("params body body-text").Body(
		bodyLegend(b),
		app.Div().Class(fieldClass(invalid)).DataSet("param", "body").Body(
			app.Div().Class("field-head").Body(
				app.Label().For("body-editor").Class("field-name").Text(label),
				f.renderBodyType(b),
				app.If(b.Schema != nil && b.Schema.Ref != "", func() app.UI { return app.Span().Class("schema-ref").Text(b.Schema.Ref) }),
				app.Span().Class("spacer"),
				app.Button().Type("button").Class("btn-link").Text("Reset to example").OnClick(f.onBodyReset),
			),
			app.Textarea().ID("body-editor").Class("input mono code-editor").Rows(rows).
				Spellcheck(false).Attr("autocapitalize", "off").Attr("autocorrect", "off").
				Attr("value", form.State.Body).Text(form.State.Body).DataSet(shownAttr, form.State.Body).
				Aria("invalid", ui.BoolAttr(invalid)).Aria("describedby", describedBy).
				OnInput(f.onTextBodyInput),
			app.If(b.Kind() == catalog.BodyBinary, func() app.UI {
				return f.filePicker(binaryField, "body-file", "Send a file instead…", "", false, describedBy, invalid, nil)
			}),
			app.Div().ID("body-error").Class("field-error").Body(
				app.If(invalid, func() app.UI { return app.Ul().Body(bodyErrorList(form.BodyErrs)...) }),
			),
			app.Div().ID("body-help").Class("field-help").Body(
				app.P().Class("muted").Text("Sent exactly as typed, with Content-Type "+b.ContentType+"."),
				ui.HTML("prose small", b.DescriptionHTML),
			),
		),
	)
}
