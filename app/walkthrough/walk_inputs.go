package walkthrough

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
)

// This file renders what a run starts from: the workflow to run, when the document has several,
// and the workflow's inputs as a form, each field typed by the input's JSON Schema type.

// renderWorkflowPicker lets the user pick the workflow to run, when there are several.
func (p *walkthroughPage) renderWorkflowPicker() app.UI {
	if len(p.Walk.Workflows) < 2 {
		return nil
	}
	cur := p.workflowOf()
	var opts []app.UI
	for _, wf := range p.Walk.Workflows {
		label := wf.ID
		if wf.Summary != "" {
			label += " — " + wf.Summary
		}
		opts = append(opts, app.Option().Value(wf.ID).Selected(cur != nil && wf.ID == cur.ID).Text(label))
	}
	return app.Div().Class("field walk-workflow-pick").Body(
		app.Label().For("walk-workflow").Class("field-name").Text("Workflow"),
		app.Select().ID("walk-workflow").Disabled(p.Sending).OnChange(p.onWorkflow).Body(opts...),
		app.If(cur != nil && len(cur.DependsOn) > 0, func() app.UI {
			return app.Div().Class("field-help").Text("Runs after the workflows it depends on: " + strings.Join(cur.DependsOn, ", ") + ".")
		}),
	)
}

// onWorkflow starts over with the workflow picked and its inputs' defaults.
func (p *walkthroughPage) onWorkflow(ctx app.Context, e app.Event) {
	p.workflow = ctx.JSSrc().Get("value").String()
	p.inputs = map[string]string{}
	p.restart(ctx)
	p.start(ctx, false)
}

// renderInputs renders the workflow's inputs: once a step was judged they are fixed (the run
// carries them), until Start again.
func (p *walkthroughPage) renderInputs() app.UI {
	wf := p.workflowOf()
	if wf == nil || len(wf.Inputs) == 0 {
		return nil
	}
	fixed := p.Sending || p.run.sent()
	var fields []app.UI
	for _, in := range wf.Inputs {
		fields = append(fields, p.renderInput(in, fixed))
	}
	return app.FieldSet().ID("walk-inputs").Class("params").Body(
		app.Legend().Text("Inputs"),
		app.Div().Class("fields").Body(fields...),
		app.If(p.run.sent(), func() app.UI {
			return app.P().Class("muted small").Text("The run carries these values: Start again to change them.")
		}),
	)
}

// renderInput renders one input as a field of its type.
func (p *walkthroughPage) renderInput(in catalog.WalkInput, fixed bool) app.UI {
	id := "walk-input-" + in.Name
	errMsg := ""
	if p.run.errInput == in.Name {
		errMsg = p.run.err
	}
	value := p.inputs[in.Name]
	var field app.UI
	switch in.Type {
	case "boolean":
		field = app.Select().ID(id).DataSet("input", in.Name).Disabled(fixed).OnChange(p.onInput).Body(
			app.Option().Value("").Selected(value == "").Text(defaultLabel(in)),
			app.Option().Value("true").Selected(value == "true").Text("true"),
			app.Option().Value("false").Selected(value == "false").Text("false"),
		)
	case "array", "object":
		field = app.Textarea().ID(id).DataSet("input", in.Name).Class("mono").Rows(3).Placeholder(in.Default).
			Disabled(fixed).Text(value).OnChange(p.onInput)
	default:
		typ := "text"
		if in.Type == "integer" || in.Type == "number" {
			typ = "number"
		}
		field = app.Input().ID(id).Type(typ).DataSet("input", in.Name).Value(value).
			Placeholder(in.Default).Disabled(fixed).OnChange(p.onInput)
	}
	cls := "field"
	if errMsg != "" {
		cls += " invalid"
	}
	help := in.Description
	if in.Type != "" {
		help = in.Type + ". " + help
	}
	return app.Div().Class(cls).Body(
		app.Label().For(id).Class("field-name").Body(app.Span().Class("mono").Text(in.Name),
			app.If(in.Required, func() app.UI { return app.Span().Class("required").Title("required").Text("*") })),
		field,
		app.Div().Class("field-help").Text(help),
		app.If(errMsg != "", func() app.UI { return app.Div().ID(id + "-error").Class("field-error").Role("alert").Text(errMsg) }),
	)
}

// defaultLabel is the empty choice of an input: its default, or none.
func defaultLabel(in catalog.WalkInput) string {
	if in.Default != "" {
		return "default (" + in.Default + ")"
	}
	return "not given"
}

// onInput keeps an input typed and, before anything was sent, prepares the first request again
// with it.
func (p *walkthroughPage) onInput(ctx app.Context, e app.Event) {
	p.inputs[ctx.JSSrc().Get("dataset").Get("input").String()] = ctx.JSSrc().Get("value").String()
	p.writeFragment()
	if !p.run.sent() {
		p.Forget()
		p.run = walkRun{}
		p.start(ctx, false)
	}
}
