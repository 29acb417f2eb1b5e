package walkthrough

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/ui"
)

// This file renders what a run starts from: the workflow to run, when the document has several,
// and the workflow's inputs as a form, as the operation page renders its fields: a labelled,
// styled field per input, of the input's JSON Schema type, whose value is what the run sends
// (a default shows as the value, not as a placeholder).

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

// inputValue is what input in shows and sends: what was typed, else its default (shown as the
// field's value, not as a placeholder: what the form shows is what runs).
func (p *walkthroughPage) inputValue(in catalog.WalkInput) string {
	if v, typed := p.inputs[in.Name]; typed {
		return v
	}
	return in.Default
}

// inputValues returns the workflow's inputs as the form shows them; an emptied one is not sent.
func (p *walkthroughPage) inputValues() map[string]string {
	out := map[string]string{}
	if wf := p.workflowOf(); wf != nil {
		for _, in := range wf.Inputs {
			if v := p.inputValue(in); v != "" {
				out[in.Name] = v
			}
		}
	}
	return out
}

// missingInput names the first required input of the workflow left empty, or "".
func (p *walkthroughPage) missingInput() string {
	if wf := p.workflowOf(); wf != nil {
		for _, in := range wf.Inputs {
			if in.Required && strings.TrimSpace(p.inputValue(in)) == "" {
				return in.Name
			}
		}
	}
	return ""
}

// inputsReady reports whether every required input has a value; when one has none, the status
// says which and the focus goes to it, and nothing is sent.
func (p *walkthroughPage) inputsReady(ctx app.Context) bool {
	name := p.missingInput()
	if name == "" {
		return true
	}
	p.rest, p.stopped = false, false
	p.blocked = "The input " + name + " is required: fill it in above."
	ctx.Defer(func(app.Context) { ui.FocusByID("walk-input-" + name) })
	return false
}

// renderInput renders one input as a labelled field of its type, its value what the run sends.
func (p *walkthroughPage) renderInput(in catalog.WalkInput, fixed bool) app.UI {
	id := "walk-input-" + in.Name
	errMsg := ""
	if p.run.errInput == in.Name {
		errMsg = p.run.err
	}
	value := p.inputValue(in)
	invalid := errMsg != "" || (in.Required && strings.TrimSpace(value) == "" && p.blocked != "")
	placeholder := ""
	if !in.Required && in.Default != "" {
		placeholder = "default: " + in.Default // seen once the default is emptied
	}
	describedBy := id + "-help"
	if errMsg != "" {
		describedBy += " " + id + "-error"
	}
	var field app.UI
	switch in.Type {
	case "boolean":
		field = app.Select().ID(id).Class("input").DataSet("input", in.Name).Disabled(fixed).
			Aria("required", ui.BoolAttr(in.Required)).Aria("invalid", ui.BoolAttr(invalid)).Aria("describedby", describedBy).
			OnChange(p.onInput).Body(
			app.Option().Value("").Selected(value == "").Text("not given"),
			app.Option().Value("true").Selected(value == "true").Text("true"),
			app.Option().Value("false").Selected(value == "false").Text("false"),
		)
	case "array", "object":
		field = app.Textarea().ID(id).Class("input mono").DataSet("input", in.Name).Rows(3).Placeholder(placeholder).
			Aria("required", ui.BoolAttr(in.Required)).Aria("invalid", ui.BoolAttr(invalid)).Aria("describedby", describedBy).
			Disabled(fixed).Text(value).OnChange(p.onInput)
	default:
		typ := "text"
		if in.Type == "integer" || in.Type == "number" {
			typ = "number"
		}
		field = app.Input().ID(id).Type(typ).Class("input mono").DataSet("input", in.Name).Value(value).
			Placeholder(placeholder).Disabled(fixed).
			Aria("required", ui.BoolAttr(in.Required)).Aria("invalid", ui.BoolAttr(invalid)).Aria("describedby", describedBy).
			OnChange(p.onInput)
	}
	cls := "field"
	if invalid {
		cls += " invalid"
	}
	return app.Div().Class(cls).Body(
		app.Div().Class("field-head").Body(
			app.Label().For(id).Class("field-name").Body(app.Span().Class("mono").Text(in.Name),
				app.If(in.Required, func() app.UI { return app.Span().Class("required").Title("required").Text("*") })),
			app.If(in.Type != "", func() app.UI { return app.Span().Class("field-type").Text(in.Type) }),
		),
		field,
		app.Div().ID(id+"-help").Class("field-help").Text(in.Description),
		app.If(errMsg != "", func() app.UI { return app.Div().ID(id + "-error").Class("field-error").Role("alert").Text(errMsg) }),
	)
}

// onInput keeps an input typed and, before anything was sent, prepares the first request again
// with it.
func (p *walkthroughPage) onInput(ctx app.Context, e app.Event) {
	src := ctx.JSSrc()
	value := src.Get("value").String()
	if src.Get("tagName").String() == "SELECT" && src.Get("selectedIndex").Int() == 0 {
		value = "" // "not given": go-app writes no value="" attribute, so the option's value is its text
	}
	p.inputs[src.Get("dataset").Get("input").String()] = value
	p.blocked = ""
	p.writeFragment()
	if !p.run.sent() {
		p.Forget()
		p.run = walkRun{}
		p.start(ctx, false)
	}
}
