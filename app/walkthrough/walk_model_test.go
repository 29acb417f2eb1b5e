package walkthrough

import (
	"encoding/json"
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/app/internal/apptest"
)

// fixtureWalk has a workflow whose second step runs another, which depends on a third.
var fixtureWalk = &catalog.Walkthrough{ID: "w", API: "demo", Title: "Demo", Workflows: []catalog.WalkWorkflow{
	{ID: "main", DependsOn: []string{"setup"}, Inputs: []catalog.WalkInput{{Name: "query", Type: "string", Default: "paris"}},
		Steps: []catalog.WalkStep{
			{ID: "first", API: "demo", OperationID: "things.list"},
			{ID: "nested", WorkflowID: "sub"},
			{ID: "last", API: "demo", OperationID: "things.list"},
		}},
	{ID: "sub", Steps: []catalog.WalkStep{{ID: "x", API: "demo", OperationID: "things.list"}}},
	{ID: "setup", Steps: []catalog.WalkStep{{ID: "prepare", API: "demo", OperationID: "things.list"}}},
}}

func fixtureCatalog() *catalog.Catalog {
	return &catalog.Catalog{APIs: []catalog.API{*apptest.FixtureAPI}, Walkthroughs: []catalog.Walkthrough{*fixtureWalk}}
}

func call(wf, step string, attempt int, outer ...string) *catalog.WalkCall {
	return &catalog.WalkCall{Workflow: wf, Step: step, Depth: len(outer), Outer: outer, API: "demo", OperationID: "things.list", Attempt: attempt,
		Params: []catalog.WalkParam{{Name: "parent", In: "path", Values: []string{"p/1"}}}}
}

// TestTheRunGathersEachVerdictUnderItsStep applies a run's answers: a retry, a nested
// workflow's step filed under the step that ran it, and each step's status as it goes.
func TestTheRunGathersEachVerdictUnderItsStep(t *testing.T) {
	var r walkRun
	steps := func(rs ...catalog.WalkStepResult) []catalog.WalkStepResult { return rs }
	for i, a := range []catalog.WalkRunAnswer{
		{State: json.RawMessage(`{}`), Call: call("setup", "prepare", 1)},
		{State: json.RawMessage(`{}`), Call: call("main", "first", 1), Steps: steps(catalog.WalkStepResult{Workflow: "setup", Step: "prepare", OK: true, Action: catalog.WalkAction{Kind: "next"}})},
		{State: json.RawMessage(`{}`), Call: call("main", "first", 2), Steps: steps(catalog.WalkStepResult{Workflow: "main", Step: "first", Status: 503,
			Action: catalog.WalkAction{Kind: "retry", Retry: 1, Limit: 3, After: 2}})},
		{State: json.RawMessage(`{}`), Call: call("sub", "x", 1, "main/nested"), Steps: steps(catalog.WalkStepResult{Workflow: "main", Step: "first", Attempt: 2, Status: 200, OK: true})},
		{State: json.RawMessage(`{}`), Call: call("main", "last", 1), Steps: steps(
			catalog.WalkStepResult{Workflow: "sub", Step: "x", Depth: 1, Outer: []string{"main/nested"}, OK: true},
			catalog.WalkStepResult{Workflow: "main", Step: "nested", OK: true})},
	} {
		if !r.apply(&a, nil) {
			t.Fatalf("answer %d: got refused", i)
		}
	}
	for _, tc := range []struct {
		top, status string
		events      int
	}{
		{"setup/prepare", "passed", 1},
		{"main/first", "passed", 2},
		{"main/nested", "passed", 2}, // its own verdict and its workflow's step
		{"main/last", "current", 0},
		{"sub/x", "", 0}, // filed under main/nested
	} {
		if got := r.status(tc.top, false); got != tc.status {
			t.Errorf("status(%s): got %q; want %q", tc.top, got, tc.status)
		}
		if got := len(r.eventsOf(tc.top)); got != tc.events {
			t.Errorf("eventsOf(%s): got %d; want %d", tc.top, got, tc.events)
		}
	}
	if got := r.status("main/last", true); got != "running" {
		t.Errorf("while sending: got %q; want running", got)
	}
	if r.apply(&catalog.WalkRunAnswer{Error: "Input query: required", Input: "query"}, nil) || r.call == nil || r.errInput != "query" {
		t.Errorf("an error answer: got call %v, input %q; want the run kept and the input named", r.call, r.errInput)
	}
}

func TestRunOrderPutsDependenciesFirst(t *testing.T) {
	var got []string
	for _, wf := range runOrder(fixtureWalk, "main") {
		got = append(got, wf.ID)
	}
	if strings.Join(got, " ") != "setup main" {
		t.Errorf("got %v; want setup then main", got)
	}
}

func TestALinksStateMarksTheStepsThatPassed(t *testing.T) {
	got := restoredFrom(json.RawMessage(`{"stack":[{"workflow":"main","step":1,"outputs":{"first":{"id":"x"}}},{"workflow":"sub","outputs":{"x":{}}}]}`))
	if !got["main/first"] || len(got) != 1 {
		t.Errorf("got %v; want main/first only (the top workflow's steps)", got)
	}
	if restoredFrom(json.RawMessage(`nonsense`)) != nil {
		t.Error("got marks from a broken state; want none")
	}
}

func TestTheProgressRoundTripsThroughTheFragment(t *testing.T) {
	p := newWalkthroughPage(fixtureWalk, fixtureCatalog(), nil)
	p.OnInit()
	p.workflow = "sub"
	p.inputs = map[string]string{"query": "a b&c"}
	p.run.apply(&catalog.WalkRunAnswer{State: json.RawMessage(`{"target":"sub","stack":[{"workflow":"sub","step":0}]}`), Call: call("sub", "x", 1),
		Steps: []catalog.WalkStepResult{{Workflow: "setup", Step: "prepare", OK: true}}}, nil)
	frag := p.fragmentText()
	if !strings.Contains(frag, "step=x") || !strings.Contains(frag, "wf=sub") {
		t.Errorf("got %s; want the workflow and the next step readable", frag)
	}

	q := newWalkthroughPage(fixtureWalk, fixtureCatalog(), nil)
	q.OnInit()
	notice, state := q.readFragment(frag)
	if notice != "" || q.workflow != "sub" || q.inputs["query"] != "a b&c" || string(state) != string(p.run.state) {
		t.Errorf("got notice %q, workflow %q, inputs %v, state %s; want the progress of %s", notice, q.workflow, q.inputs, state, frag)
	}
}

func TestABadFragmentStartsAtTheFirstStep(t *testing.T) {
	for _, tc := range []struct{ frag, want string }{
		{"#wf=nope", "This walkthrough has no workflow “nope”; it starts with its first."},
		{"#run=%21%21", "This link's progress could not be read; the walkthrough starts at its first step."},
		{"#run=AAAA", "This link's progress could not be read; the walkthrough starts at its first step."},
		{"#step=%zz", "This link's progress could not be read; the walkthrough starts at its first step."},
	} {
		p := newWalkthroughPage(fixtureWalk, fixtureCatalog(), nil)
		p.OnInit()
		if got, state := p.readFragment(tc.frag); got != tc.want || state != nil {
			t.Errorf("%s: got %q and state %q; want %q and none", tc.frag, got, state, tc.want)
		}
	}
}

func TestSourceLabel(t *testing.T) {
	for in, want := range map[string]string{
		"$steps.search.outputs.id": "step search, output id",
		"$inputs.query":            "input query",
		"$response.body#/x":        "$response.body#/x",
	} {
		if got := sourceLabel(in); got != want {
			t.Errorf("sourceLabel(%q): got %q; want %q", in, got, want)
		}
	}
}
