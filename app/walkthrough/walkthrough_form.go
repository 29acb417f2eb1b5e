package walkthrough

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/op"
	"loupe/app/ui"
)

// This file renders the current walkthrough step as its operation's own form: the fields the
// operation page shows (op.ParamFields), prefilled from the step's resolved request, each carried
// value marked with where it came from. What the form holds is what Run step sends.

// stepFields renders and edits the current step's form.
func (p *walkthroughPage) stepFields() op.ParamFields {
	v := op.ParamFields{
		Form: func() *op.FormState { return &p.steps[min(p.current, len(p.steps)-1)].form },
		Changed: func(ctx app.Context) {
			p.steps[min(p.current, len(p.steps)-1)].form.Validate()
			p.blocked = ""
			op.SyncFields(ctx)
		},
	}
	if p.current < len(p.steps) {
		for _, c := range p.steps[p.current].carried {
			if c.From == "" {
				continue
			}
			if v.Carried == nil {
				v.Carried = map[string]op.CarriedValue{}
			}
			v.Carried[c.In+":"+c.Name] = op.CarriedValue{From: sourceLabel(c.From), Values: c.Values}
		}
		for _, c := range p.steps[p.current].bodyFrom {
			v.BodyCarried = append(v.BodyCarried, op.CarriedValue{From: sourceLabel(c.From), Values: c.Values, Pointer: c.Name})
		}
	}
	return v
}

// renderStepForm renders the current step's form: its parameters grouped by location, then
// its body. Enter in a field runs the step, as Run step does.
func (p *walkthroughPage) renderStepForm(op *catalog.Operation) app.UI {
	view := p.stepFields()
	groups := []struct{ in, title string }{
		{"path", "Path parameters"}, {"query", "Query parameters"}, {"header", "Headers"}, {"cookie", "Cookies"},
	}
	var sections []app.UI
	for _, g := range groups {
		var fields []app.UI
		for i := range op.Parameters {
			if prm := &op.Parameters[i]; prm.In == g.in {
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
	return app.Form().ID("walk-form").Class("walk-form").Attr("novalidate", "novalidate").
		Aria("label", "Step "+ui.Itoa(p.current+1)+" request: "+op.ID).OnSubmit(p.onSubmitStep).Body(
		app.Div().Class("form-sections").Body(sections...),
		app.If(op.Body != nil, func() app.UI { return view.RenderBody() }),
		// A form submits on Enter only with a submit button; this one is the step's Run step.
		app.Button().Type("submit").Class("btn btn-primary walk-form-run").Disabled(p.Sending).Text("Run this step"),
	)
}

// onSubmitStep runs the current step with the values its form shows.
func (p *walkthroughPage) onSubmitStep(ctx app.Context, e app.Event) {
	e.PreventDefault()
	p.runAll = false
	p.runStep(ctx)
}
