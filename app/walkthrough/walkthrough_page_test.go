package walkthrough

import (
	"encoding/json"
	"testing"

	"loupe/app/catalog"
	"loupe/app/internal/apptest"
)

var fixtureWalk = &catalog.Walkthrough{ID: "w", API: "demo", Title: "Demo", Steps: []catalog.WalkStep{
	{ID: "first", OperationID: "things.list"}, {ID: "second", OperationID: "things.list"},
}}

func TestTheProgressRoundTripsThroughTheFragment(t *testing.T) {
	p := newWalkthroughPage(fixtureWalk, apptest.FixtureAPI)
	p.OnInit()
	p.inputs = map[string]string{"query": "a b&c"}
	p.outputs = map[string]map[string]json.RawMessage{"first": {"id": json.RawMessage(`"kg:/m/1"`)}}
	p.current = 1
	frag := p.fragmentText()

	q := newWalkthroughPage(fixtureWalk, apptest.FixtureAPI)
	q.OnInit()
	q.steps = make([]walkStepState, 2)
	if notice := q.readFragment(frag); notice != "" {
		t.Fatalf("got notice %q for %s", notice, frag)
	}
	if q.current != 1 || q.inputs["query"] != "a b&c" || string(q.outputs["first"]["id"]) != `"kg:/m/1"` || q.steps[0].status != "passed" {
		t.Errorf("got current %d, inputs %v, outputs %v, first %q; want the progress of %s", q.current, q.inputs, q.outputs, q.steps[0].status, frag)
	}
}

func TestABadFragmentStartsAtTheFirstStep(t *testing.T) {
	for _, tc := range []struct{ frag, want string }{
		{"#step=nope", "This walkthrough has no step “nope”; it starts at its first step."},
		{"#step=second&out=%7Bbroken", "This link's carried values could not be read; the walkthrough starts at its first step."},
		{"#step=%zz", "This link's progress could not be read; the walkthrough starts at its first step."},
	} {
		p := newWalkthroughPage(fixtureWalk, apptest.FixtureAPI)
		p.OnInit()
		if got := p.readFragment(tc.frag); got != tc.want || p.current != 0 {
			t.Errorf("%s: got %q at step %d; want %q at step 0", tc.frag, got, p.current, tc.want)
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
