package walkthrough

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/chatstream"
	"loupe/app/op"
	"loupe/app/request"
	"loupe/app/snippet"
	"loupe/app/ui"
)

// This file renders a workflow as an outline of its steps, each step with what the run did
// there: its verdicts (every attempt, and the steps of the workflows it ran) and, when the
// next request is its own, that request's form.

// stepDOMID is the id of a step's box: walk-step-<stepId> for the workflow picked, and
// walk-step-<workflowId>-<stepId> for a workflow it depends on.
func stepDOMID(wf *catalog.WalkWorkflow, st *catalog.WalkStep, dep bool) string {
	if dep {
		return "walk-step-" + wf.ID + "-" + st.ID
	}
	return "walk-step-" + st.ID
}

// renderOutline renders a workflow's steps; dep marks a workflow the one picked depends on.
func (p *walkthroughPage) renderOutline(wf *catalog.WalkWorkflow, dep bool) app.UI {
	var steps []app.UI
	for i := range wf.Steps {
		steps = append(steps, p.renderStep(wf, i, dep))
	}
	var head app.UI
	if dep || len(p.Walk.Workflows) > 1 {
		title := "Workflow " + wf.ID
		if dep {
			title += ", which it depends on: it runs first"
		}
		head = app.Div().Class("walk-workflow-head").Body(
			app.H2().Class("walk-workflow-title").Text(title),
			app.If(wf.Summary != "", func() app.UI { return app.P().Class("muted").Text(wf.Summary) }),
		)
	}
	return app.Section().Class("walk-workflow").DataSet("workflow", wf.ID).Aria("label", "Workflow "+wf.ID).Body(
		head,
		app.Ol().Class("walk-steps").Body(steps...),
	)
}

// renderStep renders step i of wf: a summary line and, once the run reached it, its
// description, its verdicts and, when the next request is its own, that request.
func (p *walkthroughPage) renderStep(wf *catalog.WalkWorkflow, i int, dep bool) app.UI {
	st := &wf.Steps[i]
	top := wf.ID + "/" + st.ID
	status := p.run.status(top, p.Sending)
	events := p.run.eventsOf(top)
	current := status == "current" || status == "running"
	head := app.Div().Class("walk-step-head").Body(
		app.Span().Class("walk-step-num").Text(ui.Itoa(i+1)),
		app.Strong().Class("mono").Text(st.ID),
		p.stepTarget(st),
		app.If(status != "", func() app.UI { return app.Span().Class("badge walk-badge walk-" + status).Text(status) }),
	)
	li := app.Li().ID(stepDOMID(wf, st, dep)).Class("walk-step walk-step-" + status)
	if !current && len(events) == 0 {
		if status == "passed" { // restored from a link
			return li.Body(head, app.P().Class("muted small").Text("Passed before this link was made: its outputs are carried on."))
		}
		return li.Body(head)
	}
	var verdicts []app.UI
	for j, e := range events {
		verdicts = append(verdicts, p.renderEvent(e, j == len(events)-1, len(events) > 1))
	}
	return li.Body(
		head,
		ui.HTML("prose small", st.DescriptionHTML),
		app.If(len(verdicts) > 0, func() app.UI {
			return app.Ol().Class("walk-verdicts").Aria("label", "What became of "+st.ID).Body(verdicts...)
		}),
		app.If(current, func() app.UI { return p.renderCall() }),
	)
}

// stepTarget links a step's operation, or names the workflow it runs.
func (p *walkthroughPage) stepTarget(st *catalog.WalkStep) app.UI {
	if st.WorkflowID != "" {
		return app.Span().Class("muted walk-runs").Body(app.Text("runs workflow "), app.Code().Text(st.WorkflowID))
	}
	if p.Cat.API(st.API) == nil {
		return app.Span().Class("mono op-link").Text(st.OperationID)
	}
	return app.A().Href(ui.Href("/" + st.API + "/" + st.OperationID)).Class("mono op-link").Text(st.OperationID)
}

// renderCall renders the next request: where it is (a step of a workflow the step runs),
// the values carried into it, its form and its preview; and its answer while it streams.
func (p *walkthroughPage) renderCall() app.UI {
	r := &p.run
	c := r.call
	if c == nil {
		return nil
	}
	var what []string
	if c.Depth > 0 {
		what = append(what, "step "+c.Step+" of workflow "+c.Workflow)
	}
	if c.Attempt > 1 {
		what = append(what, "attempt "+ui.Itoa(c.Attempt))
	}
	if c.After > 0 {
		what = append(what, "sent "+seconds(c.After)+" after Run step (retryAfter)")
	}
	var form, preview app.UI
	if r.callOp != nil {
		form = p.renderCallForm(r.callOp)
		preview = op.NewRequestPreview(r.callAPI, r.callOp, request.Preview(r.callOp, r.form.Base, r.form.State), snippet.Held(r.callAPI, r.callOp), r.form.Invalid())
	}
	return app.Div().Class("walk-call").Body(
		app.H3().Class("walk-call-title").Body(
			app.Text("Next request"),
			app.If(len(what) > 0, func() app.UI { return app.Span().Class("muted").Text(": " + strings.Join(what, ", ")) }),
		),
		renderCarried(carriedOf(c)),
		form,
		preview,
		app.If(r.stream != nil, func() app.UI {
			return app.Div().Class("walk-stream").Body(chatstream.NewMessage(r.stream, 0, r.stream.Answer.Rev))
		}),
	)
}

// renderCarried lists the values carried into a request, each with where it came from.
func renderCarried(vs []catalog.WalkParam) app.UI {
	if len(vs) == 0 {
		return nil
	}
	var items []app.UI
	for _, v := range vs {
		name := v.Name
		if v.In == "body" {
			name = "body " + v.Name
		}
		items = append(items, app.Li().Class("carried").Body(
			app.Code().Text(name), app.Text(" = "),
			ui.BreakableElem("code", []ui.Attr{{Name: "class", Value: "carried-value"}}, strings.Join(v.Values, ", ")),
			app.Span().Class("carried-from").Text(" ← "+sourceLabel(v.From)),
		))
	}
	return app.Div().Class("walk-carried").Body(app.P().Class("muted").Text("Carried into this step:"), app.Ul().Body(items...))
}

// sourceLabel says where a carried value comes from: "step search, output id" or "input query".
func sourceLabel(expr string) string {
	if rest, ok := strings.CutPrefix(expr, "$steps."); ok {
		step, out, _ := strings.Cut(rest, ".outputs.")
		return "step " + step + ", output " + out
	}
	if name, ok := strings.CutPrefix(expr, "$inputs."); ok {
		return "input " + name
	}
	return expr
}
