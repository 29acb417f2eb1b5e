package op

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/permalink"
	"loupe/app/request"
	"loupe/app/ui"
)

// ParamFields renders a form state's parameter fields and body editor, and handles their
// events: the operation page and each walkthrough step use it. Its handlers outlive the render
// that made them (go-app keeps a handler whose code is unchanged), so they reach the state
// through Form and Changed, closures over the owning component, never through a copied pointer.
type ParamFields struct {
	// Form returns the form state to show and edit, as it is at the time of the call.
	Form func() *FormState
	// Changed is called after an event changed the state (revalidate, sync, remember).
	Changed func(app.Context)
	// Carried marks the values carried from elsewhere, by parameter key; nil when none.
	Carried map[string]CarriedValue
	// BodyCarried marks the body's values carried from elsewhere; nil when none.
	BodyCarried []CarriedValue
}

// CarriedValue is where a prefilled value came from, and the value(s) it carried.
type CarriedValue struct {
	From    string   // "step search, output id"
	Values  []string // the value(s) carried
	Pointer string   // a body value's JSON pointer ("/messages/0/content"); "" for a parameter
}

// RenderField renders one parameter: its label, typed input(s), constraints, description and
// error, in a .field[data-param="<in>:<name>"] wrapper.
func (f ParamFields) RenderField(prm *catalog.Parameter) app.UI {
	return f.renderField(prm, request.Key(prm), permalink.IsCredential(prm.Name))
}

// renderField renders a parameter held under key in the state's Params (a multipart part's
// header has a key of its own); held says the server adds its value, so it has no input.
func (f ParamFields) renderField(prm *catalog.Parameter, key string, held bool) app.UI {
	item := request.ItemSchema(prm)
	errMsg := f.Form().fieldError(key)
	errID, descID := fieldID(key)+"-error", fieldID(key)+"-desc"

	var inputs app.UI
	switch {
	case held:
		inputs = app.P().Class("held-note").Text("Added by the server: Loupe holds this credential, the browser never sees it.")
	case request.IsList(prm):
		inputs = f.renderList(prm, key, item, errMsg != "", errID, descID)
	default:
		inputs = f.renderInput(prm, key, item, 0, f.Form().values(key)[0], errMsg != "", errID, descID)
	}

	cls := "field"
	if errMsg != "" {
		cls += " invalid"
	}
	return app.Div().Class(cls).DataSet("param", key).Body(
		app.Div().Class("field-head").Body(
			app.Label().For(inputID(key, 0)).Class("field-name").Body(
				app.Span().Class("mono").Text(prm.Name),
				app.If(prm.Required, func() app.UI {
					return app.Span().Class("required").Title("required").Text("*")
				}),
			),
			app.Span().Class("field-type").Text(typeLabel(prm)),
			app.If(prm.Deprecated, func() app.UI { return app.Span().Class("badge badge-warn").Text("deprecated") }),
			f.renderCarried(key),
			app.If(prm.Source == catalog.SourcePublicAPI, func() app.UI {
				return app.Span().Class("badge").Title("Not in the seed documents; follows the real public API").Text("public API")
			}),
		),
		inputs,
		app.Div().ID(descID).Class("field-help").Body(
			app.If(constraints(item) != "", func() app.UI { return app.Span().Class("constraints").Text(constraints(item)) }),
			ui.HTML("prose small", prm.DescriptionHTML),
			f.renderEnumMeaning(key, item),
		),
		app.Div().ID(errID).Class("field-error").Text(errMsg),
	)
}

// renderInput renders the input of one value: a select for an enum, a switch for a boolean, a
// text box otherwise (numbers too, so that "not an integer" can be said rather than swallowed).
func (f ParamFields) renderInput(prm *catalog.Parameter, key string, s *catalog.Schema, index int, value string, invalid bool, errID, descID string) app.UI {
	id := inputID(key, index)
	describedBy := descID
	if invalid {
		describedBy = errID + " " + descID
	}
	label := "" // the field's <label> names the first input; later list values get their own
	if index > 0 {
		label = prm.Name + ", value " + strconv.Itoa(index+1)
	}
	if len(s.Enum) > 0 {
		opts := []app.UI{app.Option().Value("").Selected(value == "").Text(emptyChoice(prm, s))}
		known := false
		for _, ev := range s.Enum {
			v := request.Text(ev.Value)
			known = known || v == value
			label := v
			if d := ui.PlainText(ev.DescriptionHTML); d != "" {
				label += " — " + d
			}
			opts = append(opts, app.Option().Value(v).Selected(v == value).Text(label))
		}
		if !known && value != "" {
			opts = append(opts, app.Option().Value(value).Selected(true).Text(value+" (not allowed)"))
		}
		return app.Select().ID(id).Class("input").DataSet("key", key).DataSet("index", index).DataSet(shownAttr, value).Aria("label", label).
			Aria("invalid", ui.BoolAttr(invalid)).Aria("describedby", describedBy).
			OnChange(f.onParamInput).Body(opts...)
	}
	if s.Type == "boolean" {
		def := request.Text(s.Default)
		checked := value == "true" || (value == "" && def == "true")
		state := value
		if state == "" {
			state = "not sent"
			if def != "" {
				state += " (default " + def + ")"
			}
		}
		return app.Div().Class("toggle-row").Body(
			app.Label().Class("toggle").Body(
				app.Input().ID(id).Type("checkbox").Role("switch").Checked(checked).
					DataSet("key", key).DataSet("index", index).DataSet(shownAttr, strconv.FormatBool(checked)).
					Aria("invalid", ui.BoolAttr(invalid)).Aria("describedby", describedBy).
					OnChange(f.onToggle),
				app.Span().Class("toggle-track").Aria("hidden", "true"),
				app.Span().Class("toggle-state").Text(state),
			),
			app.If(value != "" && !prm.Required, func() app.UI {
				return app.Button().Type("button").Class("btn-link").DataSet("key", key).
					Text("don't send").OnClick(f.onClearParam)
			}),
		)
	}
	mode := "text"
	switch s.Type {
	case "integer":
		mode = "numeric"
	case "number":
		mode = "decimal"
	}
	return app.Input().ID(id).Type("text").Class("input mono").Value(value).Aria("label", label).
		Attr("inputmode", mode).Placeholder(placeholder(prm, s)).
		AutoComplete(false).Spellcheck(false).
		DataSet("key", key).DataSet("index", index).DataSet(shownAttr, value).
		Aria("invalid", ui.BoolAttr(invalid)).Aria("describedby", describedBy).
		Aria("required", ui.BoolAttr(prm.Required)).
		OnInput(f.onParamInput)
}

// renderList renders a repeatable or array parameter as an editable list of values.
func (f ParamFields) renderList(prm *catalog.Parameter, key string, item *catalog.Schema, invalid bool, errID, descID string) app.UI {
	vals := f.Form().values(key)
	rows := make([]app.UI, 0, len(vals))
	for i, v := range vals {
		rows = append(rows, app.Li().Class("list-row").Body(
			f.renderInput(prm, key, item, i, v, invalid, errID, descID),
			app.Button().Type("button").Class("btn-icon").DataSet("key", key).DataSet("index", i).
				Aria("label", "Remove value "+strconv.Itoa(i+1)+" of "+prm.Name).Title("Remove").
				Text("×").OnClick(f.onRemoveValue),
		))
	}
	how := "sent as repeated " + prm.Name + "=… pairs"
	if !prm.Repeatable {
		how = "sent comma-separated"
	}
	return app.Div().Class("list-field").Body(
		app.Ul().Class("list-values").Body(rows...),
		app.Div().Class("list-foot").Body(
			app.Button().Type("button").Class("btn btn-small").DataSet("key", key).OnClick(f.onAddValue).Body(
				app.Text("+ Add value"), app.Span().Class("visually-hidden").Text(" to "+prm.Name),
			),
			app.Span().Class("muted").Text(how),
		),
	)
}

// renderEnumMeaning shows the meaning of the chosen enum value.
func (f ParamFields) renderEnumMeaning(key string, s *catalog.Schema) app.UI {
	if len(s.Enum) == 0 {
		return nil
	}
	v := f.Form().values(key)[0]
	for _, ev := range s.Enum {
		if request.Text(ev.Value) == v && v != "" && ev.DescriptionHTML != "" {
			return app.Div().Class("enum-meaning").Body(app.Code().Text(v), ui.HTML("prose small", ev.DescriptionHTML))
		}
	}
	return nil
}

// emptyChoice is the label of a select's "nothing chosen" option.
func emptyChoice(prm *catalog.Parameter, s *catalog.Schema) string {
	if len(s.Default) > 0 {
		return "— default: " + request.Text(s.Default) + " —"
	}
	if prm.Required {
		return "— choose —"
	}
	return "— not sent —"
}

// placeholder shows the default or an example in an empty text box.
func placeholder(prm *catalog.Parameter, s *catalog.Schema) string {
	if len(s.Default) > 0 {
		return "default: " + request.Text(s.Default)
	}
	ex := prm.Example
	if len(ex) == 0 {
		ex = s.Example
	}
	if len(ex) > 0 {
		var list []json.RawMessage
		if json.Unmarshal(ex, &list) == nil && len(list) > 0 {
			ex = list[0]
		}
		return "e.g. " + request.Text(ex)
	}
	return ""
}

// typeLabel describes a parameter's type: "integer", "string (date-time)", "array of string".
func typeLabel(prm *catalog.Parameter) string {
	s := prm.Schema
	if s == nil {
		return ""
	}
	t := s.Type
	if s.Format != "" {
		t += " (" + s.Format + ")"
	}
	if s.Type == "array" && s.Items != nil {
		t = "array of " + s.Items.Type
	}
	if prm.Repeatable {
		t += ", repeatable"
	}
	return t
}

// constraints summarizes bounds and lengths: "1 to 500", "at most 10 characters".
func constraints(s *catalog.Schema) string {
	var parts []string
	num := func(f *float64) string { return strconv.FormatFloat(*f, 'f', -1, 64) }
	switch {
	case s.Minimum != nil && s.Maximum != nil:
		parts = append(parts, num(s.Minimum)+" to "+num(s.Maximum))
	case s.Minimum != nil:
		parts = append(parts, "at least "+num(s.Minimum))
	case s.Maximum != nil:
		parts = append(parts, "at most "+num(s.Maximum))
	}
	if s.ExclusiveMinimum != nil {
		parts = append(parts, "more than "+num(s.ExclusiveMinimum))
	}
	if s.ExclusiveMaximum != nil {
		parts = append(parts, "less than "+num(s.ExclusiveMaximum))
	}
	if s.MinLength != nil && *s.MinLength > 1 {
		parts = append(parts, "at least "+strconv.FormatInt(*s.MinLength, 10)+" characters")
	}
	if s.MaxLength != nil {
		parts = append(parts, "at most "+strconv.FormatInt(*s.MaxLength, 10)+" characters")
	}
	if s.Pattern != "" {
		parts = append(parts, "pattern "+s.Pattern)
	}
	if len(s.Default) > 0 && s.Type != "boolean" && len(s.Enum) == 0 {
		parts = append(parts, "default "+request.Text(s.Default))
	}
	return strings.Join(parts, " · ")
}

// fieldID is the element id prefix of a parameter's field.
func fieldID(key string) string {
	var b strings.Builder
	b.WriteString("f-")
	for _, r := range key {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// inputID is the element id of a parameter's index-th input.
func inputID(key string, index int) string {
	if index == 0 {
		return fieldID(key)
	}
	return fieldID(key) + "-" + strconv.Itoa(index)
}
