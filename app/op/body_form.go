package op

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/request"
	"loupe/app/ui"
)

// This file renders a form body (application/x-www-form-urlencoded, multipart/form-data) as
// one field per property of its schema (request.FormFields): a text box, a select for an enum
// or a boolean, rows for an array, a JSON box for an object, a file picker for a file. Each
// control is tagged data-field (the property) and data-index (the value); body_form_events.go
// handles them.

// renderFormBody renders a form body's fields.
func (f ParamFields) renderFormBody(fields []request.FormField) app.UI {
	form := f.Form()
	b := form.Body()
	byField, general := formErrors(form, fields)
	kind := "form fields, sent as application/x-www-form-urlencoded"
	if b.Kind() == catalog.BodyMultipart {
		kind = "form fields, sent as multipart/form-data, one part each"
	}
	items := make([]app.UI, 0, len(fields))
	for _, fld := range fields {
		items = append(items, f.renderFormField(fld, byField[fld.Name]))
	}
	if len(fields) == 0 {
		items = append(items, app.P().Class("muted").Text("The document names no fields for this body."))
	}
	return app.FieldSet().ID("body-form").Class("params body body-form").Body(
		bodyLegend(b),
		app.Div().Class("field-head body-form-head").Body(
			f.renderBodyType(b),
			app.Span().Class("muted").Text(kind),
			app.If(b.Schema != nil && b.Schema.Ref != "", func() app.UI { return app.Span().Class("schema-ref").Text(b.Schema.Ref) }),
			app.Span().Class("spacer"),
			app.Button().Type("button").Class("btn-link").Text("Reset to example").OnClick(f.onBodyReset),
		),
		ui.HTML("prose small", b.DescriptionHTML),
		f.renderBodyCarried(),
		app.Div().ID("body-error").Class("field-error").Body(
			app.If(len(general) > 0, func() app.UI { return app.Ul().Body(bodyErrorList(general)...) }),
		),
		app.Div().Class("fields").Body(items...),
	)
}

// formErrors sorts the body's errors by the field they belong to (the first name of their
// path); the rest concern the whole body. A missing required field is flagged only after a
// Send, as a missing parameter is.
func formErrors(form *FormState, fields []request.FormField) (byField map[string][]string, general []request.FieldError) {
	names := map[string]bool{}
	for _, fld := range fields {
		names[fld.Name] = true
	}
	byField = map[string][]string{}
	for _, e := range form.BodyErrs {
		name := FormErrorField(e.Path)
		if !names[name] {
			general = append(general, e)
			continue
		}
		if strings.HasPrefix(e.Message, "missing") && !form.showMissing {
			continue
		}
		msg := e.Message
		if rest := strings.TrimPrefix(e.Path, name); rest != "" {
			msg = strings.TrimPrefix(rest, ".") + ": " + msg
		}
		byField[name] = append(byField[name], msg)
	}
	return byField, general
}

// FormErrorField returns the form field an error path belongs to: "tags[1]" and "tags" are
// tags, "address.city" is address.
func FormErrorField(path string) string {
	if i := strings.IndexAny(path, ".["); i >= 0 {
		return path[:i]
	}
	return path
}

// renderFormField renders one field: its name, type, values and what is wrong with them.
func (f ParamFields) renderFormField(fld request.FormField, errs []string) app.UI {
	id := bodyFieldID(fld.Name, 0)
	errID, descID := id+"-error", id+"-desc"
	describedBy := descID
	if len(errs) > 0 {
		describedBy = errID + " " + descID
	}
	var control app.UI
	switch {
	case fld.File:
		control = f.renderFileField(fld, describedBy, len(errs) > 0)
	case fld.List:
		control = f.renderFormList(fld, describedBy, len(errs) > 0)
	default:
		control = f.renderFormInput(fld, 0, first(fld.Values), describedBy, len(errs) > 0)
	}
	cls := "field body-form-field"
	if len(errs) > 0 {
		cls += " invalid"
	}
	item := fld.Item()
	desc := ""
	if fld.Schema != nil {
		desc = fld.Schema.DescriptionHTML
	}
	return app.Div().Class(cls).DataSet("param", "body:"+fld.Name).Body(
		app.Div().Class("field-head").Body(
			app.Label().For(id).Class("field-name").Body(
				app.Span().Class("mono").Text(fld.Name),
				app.If(fld.Required, func() app.UI { return app.Span().Class("required").Title("required").Text("*") }),
			),
			app.Span().Class("field-type").Text(formTypeLabel(fld)),
			app.If(fld.Sent && !fld.Required && !fld.File, func() app.UI {
				return app.Button().Type("button").Class("btn-link").DataSet("field", fld.Name).
					Title("Leave " + fld.Name + " out of the body").Text("don't send").OnClick(f.onFormClear)
			}),
		),
		control,
		app.Div().ID(descID).Class("field-help").Body(
			app.If(item != nil && constraints(item) != "", func() app.UI { return app.Span().Class("constraints").Text(constraints(item)) }),
			ui.HTML("prose small", desc),
		),
		app.Div().ID(errID).Class("field-error").Text(strings.Join(errs, "; ")),
		f.renderPartHeaders(fld.Name),
	)
}

// renderPartHeaders renders an input per header the document gives a multipart field's part
// (encoding.<field>.headers), as header parameters are rendered; nothing when it gives none.
// They are sent with the part, so only while the field is.
func (f ParamFields) renderPartHeaders(field string) app.UI {
	hs := request.PartHeaders(f.Form().Body(), field)
	if len(hs) == 0 {
		return nil
	}
	items := make([]app.UI, 0, len(hs)+1)
	items = append(items, app.Legend().Class("part-headers-legend").Text("Headers of the "+field+" part"))
	for i := range hs {
		items = append(items, f.renderField(&hs[i], request.PartHeaderKey(field, hs[i].Name), false))
	}
	return app.FieldSet().Class("part-headers").DataSet("part", field).Body(items...)
}

// renderFormInput renders the control of one value: a select for an enum or a boolean, a JSON
// box for an object, a text box otherwise.
func (f ParamFields) renderFormInput(fld request.FormField, index int, value, describedBy string, invalid bool) app.UI {
	id := bodyFieldID(fld.Name, index)
	label := ""
	if index > 0 {
		label = fld.Name + ", value " + strconv.Itoa(index+1)
	}
	s := fld.Item()
	if s == nil {
		s = &catalog.Schema{}
	}
	if len(s.Enum) > 0 || s.Type == "boolean" {
		var choices []string
		for _, ev := range s.Enum {
			choices = append(choices, request.Text(ev.Value))
		}
		if len(choices) == 0 {
			choices = []string{"true", "false"}
		}
		none := "— not sent —"
		if fld.List {
			none = "— choose —"
		}
		opts := []app.UI{app.Option().Value("").Selected(value == "").Text(none)}
		known := false
		for _, c := range choices {
			known = known || c == value
			opts = append(opts, app.Option().Value(c).Selected(c == value).Text(c))
		}
		if !known && value != "" {
			opts = append(opts, app.Option().Value(value).Selected(true).Text(value+" (not allowed)"))
		}
		return app.Select().ID(id).Class("input").DataSet("key", "body").DataSet("field", fld.Name).DataSet("index", index).
			DataSet(shownAttr, value).Aria("label", label).Aria("invalid", ui.BoolAttr(invalid)).Aria("describedby", describedBy).
			OnChange(f.onFormInput).Body(opts...)
	}
	if fld.JSON {
		rows := min(max(strings.Count(value, "\n")+1, 2), 12)
		return app.Textarea().ID(id).Class("input mono code-editor").Rows(rows).Spellcheck(false).
			Attr("value", value).Text(value).DataSet("key", "body").DataSet("field", fld.Name).DataSet("index", index).
			DataSet(shownAttr, value).Aria("label", label).Placeholder("JSON, e.g. {}").
			Aria("invalid", ui.BoolAttr(invalid)).Aria("describedby", describedBy).OnInput(f.onFormInput)
	}
	mode := "text"
	switch s.Type {
	case "integer":
		mode = "numeric"
	case "number":
		mode = "decimal"
	}
	ph := ""
	if len(s.Default) > 0 {
		ph = "default: " + request.Text(s.Default)
	} else if len(s.Example) > 0 {
		ph = "e.g. " + request.Text(s.Example)
	}
	return app.Input().ID(id).Type("text").Class("input mono").Value(value).Aria("label", label).
		Attr("inputmode", mode).Placeholder(ph).AutoComplete(false).Spellcheck(false).
		DataSet("key", "body").DataSet("field", fld.Name).DataSet("index", index).DataSet(shownAttr, value).
		Aria("invalid", ui.BoolAttr(invalid)).Aria("describedby", describedBy).
		Aria("required", ui.BoolAttr(fld.Required)).OnInput(f.onFormInput)
}

// renderFormList renders an array field as rows, one per item.
func (f ParamFields) renderFormList(fld request.FormField, describedBy string, invalid bool) app.UI {
	rows := make([]app.UI, 0, len(fld.Values))
	for i, v := range fld.Values {
		rows = append(rows, app.Li().Class("list-row").Body(
			f.renderFormInput(fld, i, v, describedBy, invalid),
			app.Button().Type("button").Class("btn-icon").DataSet("field", fld.Name).DataSet("index", i).
				Aria("label", "Remove value "+strconv.Itoa(i+1)+" of "+fld.Name).Title("Remove").
				Text("×").OnClick(f.onFormRemove),
		))
	}
	how := "sent as repeated " + fld.Name + "=… pairs"
	if f.Form().Body().Kind() == catalog.BodyMultipart {
		how = "one part per value"
	}
	addID := bodyFieldID(fld.Name, 0) + "-add"
	if len(rows) == 0 {
		addID = bodyFieldID(fld.Name, 0) // the field's label names the button while there is no row
	}
	return app.Div().Class("list-field").Body(
		app.If(len(rows) > 0, func() app.UI { return app.Ul().Class("list-values").Body(rows...) }),
		app.Div().Class("list-foot").Body(
			app.Button().ID(addID).Type("button").Class("btn btn-small").DataSet("field", fld.Name).
				OnClick(f.onFormAdd).Body(app.Text("+ Add value"), app.Span().Class("visually-hidden").Text(" to "+fld.Name)),
			app.Span().Class("muted").Text(how),
		),
	)
}

// formTypeLabel describes a form field's type: "integer", "file", "files", "array of string",
// "object (JSON)".
func formTypeLabel(fld request.FormField) string {
	s := fld.Item()
	t := ""
	if s != nil {
		t = s.Type
		if s.Format != "" && !fld.File {
			t += " (" + s.Format + ")"
		}
	}
	switch {
	case fld.File && fld.List:
		return "files"
	case fld.File:
		return "file"
	case fld.JSON:
		t = strings.TrimSpace(t + " (JSON)")
	}
	if fld.List {
		t = "array of " + t
	}
	return t
}

// bodyFieldID is the element id of a form body field's index-th control.
func bodyFieldID(field string, index int) string {
	return "body-" + inputID(field, index)
}

// first returns the first value, or "".
func first(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return vs[0]
}

// formFieldsOf returns the fields of a form's body (none when it is not an object of fields).
func formFieldsOf(form *FormState) []request.FormField {
	fields, _ := request.FormFields(form.Body(), form.State.Body)
	return fields
}
