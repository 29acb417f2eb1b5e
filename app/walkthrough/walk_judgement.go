package walkthrough

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/chatstream"
	"loupe/app/op"
	"loupe/app/ui"
)

// This file renders what became of a step: its answer, each criterion with why it held or
// failed, the values it passed on, the action the run took next (a retry, a goto, an end),
// and, after a failure, what to do; then the run's outcome.

// renderEvent renders one verdict of a step (last marks the step's latest, whose answer shows
// open; many that the step has several, each then titled).
func (p *walkthroughPage) renderEvent(e *walkEvent, last, many bool) app.UI {
	r := e.res
	var title []string
	if r.Depth > 0 {
		title = append(title, "workflow "+r.Workflow+", step "+r.Step)
	}
	if many || r.Attempt > 1 {
		title = append(title, "attempt "+ui.Itoa(r.Attempt))
	}
	if r.Status != 0 {
		title = append(title, "answered "+ui.Itoa(r.Status))
	}
	verdict := "failed"
	if r.OK {
		verdict = "passed"
	}
	var answer app.UI
	switch {
	case e.stream != nil:
		answer = app.Div().Class("walk-stream").Body(chatstream.NewMessage(e.stream, 0, e.stream.Answer.Rev))
	case e.ex != nil && e.op != nil && last:
		answer = op.NewResponsePanel(e.op, e.ex, false, "")
	case e.ex != nil && e.op != nil:
		answer = app.Details().Class("walk-earlier").Body(
			app.Summary().Text("The answer of this attempt"),
			op.NewResponsePanel(e.op, e.ex, false, ""),
		)
	}
	return app.Li().Class("walk-verdict walk-verdict-"+verdict).Style("margin-left", strconv.Itoa(r.Depth*1)+"rem").Body(
		app.P().Class("walk-verdict-head").Body(
			app.Span().Class("criterion-mark").Aria("hidden", "true").Text(map[bool]string{true: "✓", false: "✗"}[r.OK]),
			app.Text(" "),
			app.Strong().Text(verdict),
			app.If(len(title) > 0, func() app.UI { return app.Span().Class("muted").Text(" · " + strings.Join(title, " · ")) }),
		),
		renderCarried(e.carried),
		app.If(e.ex != nil, func() app.UI { return app.P().Class("walk-sent mono").Text(e.ex.Method + " " + e.ex.URL) }),
		answer,
		renderCriteria(r.Criteria),
		renderOutputs(r.Outputs),
		app.If(r.Error != "" || (!r.OK && r.Hint != ""), func() app.UI {
			return app.Div().Class("walk-failure").Role("alert").Body(
				app.Strong().Text("This step failed. "),
				app.Text(strings.TrimSpace(r.Error+" "+r.Hint)))
		}),
		renderAction(r.Action, r.OK),
	)
}

// renderCriteria lists criteria, each with its outcome and why.
func renderCriteria(cs []catalog.WalkCriterionWhy) app.UI {
	if len(cs) == 0 {
		return nil
	}
	var items []app.UI
	for _, c := range cs {
		mark := map[string]string{"passed": "✓", "failed": "✗"}[c.Outcome]
		if mark == "" {
			mark = "·"
		}
		items = append(items, app.Li().Class("criterion criterion-"+strings.ReplaceAll(c.Outcome, " ", "-")).Body(
			app.Span().Class("criterion-mark").Aria("hidden", "true").Text(mark),
			ui.BreakableElem("code", nil, c.Condition), app.Span().Class("criterion-outcome").Text(" "+c.Outcome),
			app.If(c.Type != "" && c.Type != "simple", func() app.UI { return app.Span().Class("criterion-type muted").Text(" (" + c.Type + ")") }),
			app.If(c.Why != "", func() app.UI {
				return ui.BreakableElem("span", []ui.Attr{{Name: "class", Value: "criterion-why"}}, ": "+c.Why)
			}),
		))
	}
	return app.Ul().Class("criteria").Aria("label", "Success criteria").Body(items...)
}

// renderOutputs lists the values a step passed on, in name order.
func renderOutputs(outs map[string]json.RawMessage) app.UI {
	if len(outs) == 0 {
		return nil
	}
	names := make([]string, 0, len(outs))
	for k := range outs {
		names = append(names, k)
	}
	sort.Strings(names)
	var items []app.UI
	for _, name := range names {
		items = append(items, app.Dt().Class("mono").Text(name), app.Dd().Body(app.Code().Text(ui.Shorten(string(outs[name]), 200))))
	}
	return app.Dl().Class("walk-outputs").Aria("label", "Outputs").Body(items...)
}

// renderAction says what the run did after a step, when it was not simply the next step.
func renderAction(a catalog.WalkAction, ok bool) app.UI {
	name := ""
	if a.Name != "" {
		name = " (action " + a.Name + ")"
	}
	var text, cls string
	switch a.Kind {
	case "goto":
		text, cls = "↪ goto "+a.Target+name, "goto"
	case "retry":
		text, cls = "↻ retry "+ui.Itoa(a.Retry)+" of "+ui.Itoa(a.Limit)+name, "retry"
		if a.Retry == 0 {
			text = "↻ back to " + a.Target + name
		}
		if a.Target != "" && a.Retry > 0 {
			text += ", after running " + a.Target
		}
		if a.After > 0 {
			text += ", after " + seconds(a.After)
		}
	case "end":
		text, cls = "■ the workflow ends here"+name, "end"
	case "fail":
		text, cls = "■ no failure action applies: the workflow fails", "fail"
	default:
		return nil
	}
	return app.P().Class("walk-action walk-action-" + cls).Text(text)
}

// seconds writes a duration in seconds: "2 s", "0.5 s".
func seconds(s float64) string {
	return strconv.FormatFloat(s, 'f', -1, 64) + " s"
}

// renderOutcome renders the run's end: the workflow's outputs, or why it failed and what to do.
func (p *walkthroughPage) renderOutcome() app.UI {
	r := &p.run
	if !r.finished {
		return nil
	}
	if !r.ok {
		return app.Div().ID("walk-outcome").Class("walk-outcome walk-failure").Role("alert").Body(
			app.Strong().Text("The workflow failed. "),
			app.Text(strings.TrimSpace(r.reason+". "+r.hint)),
			app.Text(" Fix what the failed step shows (an input, or a value in its request), then Start again."),
		)
	}
	return app.Div().ID("walk-outcome").Class("walk-outcome").Body(
		app.P().Body(app.Strong().Text("The workflow succeeded"), app.Text(" after "+ui.Plural(len(r.events), "step", "steps")+".")),
		renderOutputs(r.outputs),
	)
}
