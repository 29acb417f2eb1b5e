package walkthrough

import (
	"slices"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/op"
	"loupe/app/request"
)

// This file renders the next request as its operation's own form: the fields the operation
// page shows (op.ParamFields), prefilled with what the service resolved, each carried value
// marked with where it came from. What the form holds is what Run step sends.

// callFields renders and edits the next request's form.
func (p *walkthroughPage) callFields() op.ParamFields {
	v := op.ParamFields{
		Form: func() *op.FormState { return &p.run.form },
		Changed: func(ctx app.Context) {
			p.run.form.Validate()
			p.blocked = ""
			op.SyncFields(ctx)
		},
	}
	c := p.run.call
	if c == nil {
		return v
	}
	for _, prm := range c.Params {
		if prm.From == "" {
			continue
		}
		if v.Carried == nil {
			v.Carried = map[string]op.CarriedValue{}
		}
		v.Carried[prm.In+":"+prm.Name] = op.CarriedValue{From: sourceLabel(prm.From), Values: prm.Values}
	}
	for _, b := range c.BodyFrom {
		v.BodyCarried = append(v.BodyCarried, op.CarriedValue{From: sourceLabel(b.From), Values: b.Values, Pointer: b.Name})
	}
	return v
}

// renderCallForm renders the next request's form: its parameters grouped by location, then its
// body. Enter in a field sends it, as Run step does.
func (p *walkthroughPage) renderCallForm(operation *catalog.Operation) app.UI {
	view := p.callFields()
	groups := []struct{ in, title string }{
		{"path", "Path parameters"}, {"query", "Query parameters"}, {"header", "Headers"}, {"cookie", "Cookies"},
	}
	var sections []app.UI
	for _, g := range groups {
		var fields []app.UI
		for i := range operation.Parameters {
			if prm := &operation.Parameters[i]; prm.In == g.in {
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
	step := ""
	if c := p.run.call; c != nil {
		step = c.Step
	}
	return app.Form().ID("walk-form").Class("walk-form").Attr("novalidate", "novalidate").
		Aria("label", "Step "+step+" request: "+operation.ID).OnSubmit(p.onSubmitCall).Body(
		app.Div().Class("form-sections").Body(sections...),
		app.If(operation.Body != nil, func() app.UI { return view.RenderBody() }),
		// A form submits on Enter only with a submit button; this one is the step's Run step.
		app.Button().Type("submit").Class("btn btn-primary walk-form-run").Disabled(p.Sending).Text("Run this step"),
	)
}

// onSubmitCall sends the next request with the values its form shows.
func (p *walkthroughPage) onSubmitCall(ctx app.Context, e app.Event) {
	e.PreventDefault()
	p.rest = false
	p.send(ctx)
}

// callForm returns the form of a step's request to operation, sending to base: its
// parameters as the service resolved them, its body as the step's contentType says, the way
// the server-side run sends it (request.SentAs): a type the document offers is chosen in the
// body's type menu, another makes a body of that type alone, and a form body written
// already encoded becomes its fields. Its Op is the operation as sent.
func callForm(c *catalog.WalkCall, operation *catalog.Operation, base string) op.FormState {
	st := request.State{Params: map[string][]string{}, Body: c.Body}
	sent := operation
	if c.Body != "" || c.ContentType != "" {
		sent, st.BodyType = request.SentAs(operation, c.ContentType)
	}
	if b := request.BodyOf(sent, st); b != nil && b.Kind() == catalog.BodyURLEncoded {
		if fields, ok := request.FormText(c.Body); ok {
			st.Body = fields
		}
	}
	for _, prm := range c.Params {
		st.Params[prm.In+":"+prm.Name] = slices.Clone(prm.Values) // edits must not change the carried values
	}
	f := op.FormState{Op: sent, Base: base, State: st}
	f.Validate()
	return f
}
