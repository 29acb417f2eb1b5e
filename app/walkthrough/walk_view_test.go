package walkthrough

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/op"
)

// ran returns a page of the fixture whose run got these answers, the last one's call prepared.
func ran(t *testing.T, answers ...catalog.WalkRunAnswer) *walkthroughPage {
	t.Helper()
	p := newWalkthroughPage(fixtureWalk, fixtureCatalog(), nil)
	p.OnInit()
	for i := range answers {
		p.run.apply(&answers[i], &walkEvent{})
	}
	if c := p.run.call; c != nil {
		p.run.callAPI = p.Cat.API(c.API)
		p.run.callOp = p.run.callAPI.Operation(c.OperationID)
		f := op.FormState{Op: p.run.callOp, Base: "/proxy/demo"}
		f.State.Params = map[string][]string{}
		f.State.Body = c.Body
		for _, prm := range c.Params {
			f.State.Params[prm.In+":"+prm.Name] = append([]string(nil), prm.Values...)
		}
		f.Validate()
		p.run.form = f
	}
	return p
}

// TestTheRunnerShowsWhyEachCriterionHeldAndTheActionsTaken renders a run with a retry, a goto
// and an end: each criterion with its outcome and why, each action as the run took it.
func TestTheRunnerShowsWhyEachCriterionHeldAndTheActionsTaken(t *testing.T) {
	p := ran(t,
		catalog.WalkRunAnswer{State: json.RawMessage(`{}`), Call: call("main", "first", 2), Steps: []catalog.WalkStepResult{
			{Workflow: "setup", Step: "prepare", Attempt: 1, Status: 200, OK: true, Action: catalog.WalkAction{Kind: "goto", Name: "skip", Target: "done"}},
			{Workflow: "main", Step: "first", Attempt: 1, Status: 503, Hint: "The API answered 503: read the API's own error.",
				Criteria: []catalog.WalkCriterionWhy{
					{Condition: "$statusCode == 200", Type: "simple", Outcome: "failed", Why: "$statusCode is 503"},
					{Condition: "$response.body ~ $[?@.items]", Type: "jsonpath", Outcome: "not checked", Why: "an earlier criterion failed"},
				},
				Action: catalog.WalkAction{Kind: "retry", Name: "again", Retry: 1, Limit: 3, After: 2}},
		}},
	)
	html := app.HTMLString(p)
	for _, want := range missing(html,
		`↪ goto done (action skip)`,
		`✗ $statusCode == 200 failed : $statusCode is 503`,
		` (jsonpath)`, `criterion-not-checked`,
		`↻ retry 1 of 3 (action again), after 2 s`,
		`This step failed. The API answered 503`,
		`Next request`, `attempt 2`,
		`id="walk-step-setup-prepare"`, // the workflow it depends on, by its own ids
	) {
		t.Errorf("the page renders without %q", want)
	}
	if got := stepClass(html, "walk-step-first"); got != "walk-step walk-step-current" {
		t.Errorf("step first has class %q; want it current", got)
	}

	done := ran(t, catalog.WalkRunAnswer{State: json.RawMessage(`{}`), Finished: true, OK: true, Outputs: map[string]json.RawMessage{"name": json.RawMessage(`"Ada"`)},
		Steps: []catalog.WalkStepResult{{Workflow: "main", Step: "last", OK: true, Action: catalog.WalkAction{Kind: "end", Name: "stop"}}}})
	html = app.HTMLString(done)
	for _, want := range missing(html, `■ the workflow ends here (action stop)`, `The workflow succeeded after 1 step`, `Ada`, `Done: every step passed.`) {
		t.Errorf("the finished run renders without %q", want)
	}
}

// TestTheNextRequestIsTheOperationsFormWithItsCarriedValuesMarked: the form shows what the
// service resolved, each carried value marked with its source, and an edit is marked as such.
func TestTheNextRequestIsTheOperationsFormWithItsCarriedValuesMarked(t *testing.T) {
	c := call("main", "first", 1)
	c.Params = []catalog.WalkParam{
		{Name: "parent", In: "path", Values: []string{"p/7"}, From: "$steps.search.outputs.id"},
		{Name: "limit", In: "query", Values: []string{"3"}},
	}
	c.Body, c.BodyFrom = `{"name":"Ada"}`, []catalog.WalkParam{{Name: "/name", In: "body", Values: []string{"Ada"}, From: "$inputs.who"}}
	p := ran(t, catalog.WalkRunAnswer{State: json.RawMessage(`{}`), Call: c})
	html := app.HTMLString(p)
	for _, want := range []string{
		`id="walk-form"`,
		`id="f-path-parent"`, `value="p/7"`,
		`← step search, output id`,
		`id="f-query-limit"`, `value="3"`,
		`id="body-editor"`,
		` ← input who`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the step renders without %q", want)
		}
	}
	p.run.form.SetValue("path:parent", 0, "p/8")
	p.run.form.State.Body = `{"name":"Bob"}`
	html = app.HTMLString(p)
	if n := strings.Count(html, "edited · was from"); n != 2 {
		t.Errorf("after editing both carried values the step shows %d edited marks; want 2", n)
	}
}

// TestAFailedRunSaysWhatToDo: the run's end after a failure names the reason and what to try.
func TestAFailedRunSaysWhatToDo(t *testing.T) {
	p := ran(t, catalog.WalkRunAnswer{State: json.RawMessage(`{}`), Finished: true, Reason: "step first failed", Hint: "Check the inputs.",
		Steps: []catalog.WalkStepResult{{Workflow: "main", Step: "first", Status: 404, Action: catalog.WalkAction{Kind: "fail"}, Hint: "Check the inputs."}}})
	html := app.HTMLString(p)
	for _, want := range missing(html, `The workflow failed. step first failed. Check the inputs.`, `Stopped: a step failed.`,
		`no failure action applies`) {
		t.Errorf("the failed run renders without %q", want)
	}
	if got := stepClass(html, "walk-step-first"); got != "walk-step walk-step-failed" {
		t.Errorf("step first has class %q; want it failed", got)
	}
}

// textOf is a page's HTML as text: tags left out, white space collapsed.
func textOf(html string) string {
	var b strings.Builder
	in := false
	for _, r := range html {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
			b.WriteRune(' ')
		case !in:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// contains reports the wants neither the HTML nor its text holds.
func missing(html string, wants ...string) []string {
	text := textOf(html)
	var out []string
	for _, w := range wants {
		if !strings.Contains(html, w) && !strings.Contains(text, w) {
			out = append(out, w)
		}
	}
	return out
}

// stepClass is the class of the element with the given id in html, whatever the order of its
// attributes (go-app writes them in no fixed order).
func stepClass(html, id string) string {
	m := regexp.MustCompile(`<li ([^>]*)>`).FindAllStringSubmatch(html, -1)
	for _, tag := range m {
		if strings.Contains(tag[1], `id="`+id+`"`) {
			if c := regexp.MustCompile(`class="([^"]*)"`).FindStringSubmatch(tag[1]); c != nil {
				return c[1]
			}
		}
	}
	return ""
}
