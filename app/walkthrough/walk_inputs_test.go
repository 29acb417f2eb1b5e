package walkthrough

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
)

// inputTag is the <input> element with the given id in html, its attributes in any order.
func inputTag(html, id string) string {
	for _, m := range regexp.MustCompile(`<input [^>]*>`).FindAllString(html, -1) {
		if regexp.MustCompile(`id="` + id + `"`).MatchString(m) {
			return m
		}
	}
	return ""
}

// attr is the value of attribute name in tag ("true" for one written bare, as go-app writes an
// attribute set to "true"), and whether it is there.
func attr(tag, name string) (string, bool) {
	m := regexp.MustCompile(`\s` + name + `(="([^"]*)")?[\s>]`).FindStringSubmatch(tag)
	switch {
	case m == nil:
		return "", false
	case m[1] == "":
		return "true", true
	}
	return m[2], true
}

// TestAnInputShowsWhatTheRunSends: a default is the field's value (an optional input's
// placeholder names it, seen once emptied), sent as shown; an emptied field sends nothing; a required input left empty stops Run step and is
// marked only once Run step was pressed.
func TestAnInputShowsWhatTheRunSends(t *testing.T) {
	p := newWalkthroughPage(fixtureWalk, fixtureCatalog(), nil)
	p.OnInit()
	tag := inputTag(app.HTMLString(p), "walk-input-query")
	if v, _ := attr(tag, "value"); v != "paris" {
		t.Errorf("the input with default paris has value %q; want paris (%s)", v, tag)
	}
	if ph, _ := attr(tag, "placeholder"); ph != "default: paris" {
		t.Errorf("the optional input with default paris has placeholder %q; want default: paris (seen once emptied)", ph)
	}
	if got := p.inputValues(); got["query"] != "paris" {
		t.Errorf("inputValues: got %v; want query=paris, the value shown", got)
	}
	p.inputs["query"] = ""
	if got := p.inputValues(); len(got) != 0 {
		t.Errorf("inputValues after emptying query: got %v; want nothing sent", got)
	}

	req := &catalog.Walkthrough{ID: "r", API: "demo", Title: "R", Workflows: []catalog.WalkWorkflow{{ID: "main",
		Inputs: []catalog.WalkInput{{Name: "id", Type: "string", Required: true}, {Name: "n", Type: "integer", Default: "3"}},
		Steps:  []catalog.WalkStep{{ID: "first", API: "demo", OperationID: "things.list"}}}}}
	p = newWalkthroughPage(req, fixtureCatalog(), nil)
	p.OnInit()
	if got := p.missingInput(); got != "id" {
		t.Errorf("missingInput: got %q; want id", got)
	}
	html := app.HTMLString(p)
	if v, _ := attr(inputTag(html, "walk-input-id"), "aria-invalid"); v != "" {
		t.Errorf("before Run step the empty required input has aria-invalid %q; want none", v)
	}
	if got := p.statusClass(); got != "" {
		t.Errorf("before Run step the status has class %q; want none (nothing failed)", got)
	}
	p.blocked = "The input id is required: fill it in above."
	html = app.HTMLString(p)
	if v, _ := attr(inputTag(html, "walk-input-id"), "aria-invalid"); v != "true" {
		t.Errorf("after Run step the empty required input has aria-invalid %q; want true", v)
	}
	if v, _ := attr(inputTag(html, "walk-input-n"), "aria-invalid"); v != "" {
		t.Errorf("the optional input n has aria-invalid %q; want none", v)
	}
	if v, _ := attr(inputTag(html, "walk-input-n"), "value"); v != "3" {
		t.Errorf("the optional input n has value %q; want its default 3", v)
	}
	if v, _ := attr(inputTag(html, "walk-input-id"), "aria-required"); v != "true" {
		t.Errorf("the required input id has aria-required %q; want true", v)
	}
	p.inputs["id"] = "42"
	if got := p.missingInput(); got != "" {
		t.Errorf("missingInput once id is typed: got %q; want none", got)
	}
}

// TestTheStatusIsInTheErrorColourOnlyForAFailure: a run that goes well, waits, was stopped or
// succeeded is never in the error colour; a failed run, a request that cannot be sent and a
// run that cannot go on are.
func TestTheStatusIsInTheErrorColourOnlyForAFailure(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(p *walkthroughPage)
		want string
	}{
		{"the next request prepared", func(p *walkthroughPage) {}, ""},
		{"a step that failed and is retried", func(p *walkthroughPage) {
			p.run.events = append(p.run.events, walkEvent{res: catalog.WalkStepResult{Workflow: "main", Step: "first", Status: 503}})
		}, ""},
		{"stopped by the user", func(p *walkthroughPage) {
			p.blocked, p.stopped = "Stopped before the answer was judged: Run step sends the request again.", true
		}, ""},
		{"fields to fix", func(p *walkthroughPage) { p.blocked = "1 field needs fixing before this step can run: x" }, " is-error"},
		{"the service cannot go on", func(p *walkthroughPage) { p.run.err = "the input n is not an integer" }, " is-error"},
		{"the workflow failed", func(p *walkthroughPage) { p.run.finished = true }, " is-error"},
		{"the workflow succeeded", func(p *walkthroughPage) { p.run.finished, p.run.ok = true, true }, " is-ok"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := ran(t, catalog.WalkRunAnswer{State: json.RawMessage(`{}`), Call: call("main", "first", 1)})
			tc.set(p)
			if got := p.statusClass(); got != tc.want {
				t.Errorf("got %q; want %q (status %q)", got, tc.want, p.statusText())
			}
		})
	}
}
