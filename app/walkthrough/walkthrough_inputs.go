package walkthrough

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/ui"
)

// This file renders the walkthrough's inputs and the state of its run, as the operation page
// renders its fields and its status: a labelled, styled field per input whose value is what
// the run sends (a default shows as the value, not as a placeholder), and a status in the
// error colour only when something failed.

// inputValue is what input in shows and sends: what was typed, else its default (shown as the
// field's value, not as a placeholder: what the form shows is what runs).
func (p *walkthroughPage) inputValue(in catalog.WalkInput) string {
	if v, typed := p.inputs[in.Name]; typed {
		return v
	}
	return in.Default
}

// inputValues returns the inputs as the form shows them; an emptied one is not sent.
func (p *walkthroughPage) inputValues() map[string]string {
	out := map[string]string{}
	for _, in := range p.Walk.Inputs {
		if v := p.inputValue(in); v != "" {
			out[in.Name] = v
		}
	}
	return out
}

// missingInput names the first required input left empty, or "".
func (p *walkthroughPage) missingInput() string {
	for _, in := range p.Walk.Inputs {
		if in.Required && strings.TrimSpace(p.inputValue(in)) == "" {
			return in.Name
		}
	}
	return ""
}

// renderInput renders one input of the walkthrough.
func (p *walkthroughPage) renderInput(in catalog.WalkInput) app.UI {
	id := "walk-input-" + in.Name
	value := p.inputValue(in)
	missing := in.Required && value == "" && p.blocked != ""
	placeholder := ""
	if !in.Required && in.Default != "" {
		placeholder = "default: " + in.Default
	}
	cls := "field"
	if missing {
		cls += " invalid"
	}
	return app.Div().Class(cls).Body(
		app.Div().Class("field-head").Body(
			app.Label().For(id).Class("field-name").Body(app.Span().Class("mono").Text(in.Name),
				app.If(in.Required, func() app.UI { return app.Span().Class("required").Title("required").Text("*") })),
			app.If(in.Type != "", func() app.UI { return app.Span().Class("field-type").Text(in.Type) }),
		),
		app.Input().ID(id).Type("text").Class("input mono").DataSet("input", in.Name).Value(value).
			Placeholder(placeholder).Disabled(p.Sending).Aria("required", ui.BoolAttr(in.Required)).
			Aria("invalid", ui.BoolAttr(missing)).Aria("describedby", id+"-help").OnChange(p.onInput),
		app.Div().ID(id+"-help").Class("field-help").Text(in.Description),
	)
}

// statusClass colours the run's status: the error colour for a failure or a step that
// cannot run, the success colour once every step passed, none while it runs or waits.
func (p *walkthroughPage) statusClass() string {
	switch {
	case p.Sending:
		return ""
	case p.current >= len(p.Walk.Steps):
		return " is-ok"
	case p.blocked != "":
		return " is-error"
	}
	for _, s := range p.steps {
		if s.status == "failed" {
			return " is-error"
		}
	}
	return ""
}
