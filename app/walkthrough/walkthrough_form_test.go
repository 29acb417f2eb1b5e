package walkthrough

import (
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/internal/apptest"
	"loupe/app/op"
	"loupe/app/request"
)

// prepared returns a walkthrough page whose current step is prepared as the server resolved it.
func prepared(t *testing.T, params []catalog.WalkParam, body string, bodyFrom []catalog.WalkParam) *walkthroughPage {
	t.Helper()
	p := newWalkthroughPage(fixtureWalk, apptest.FixtureAPI)
	p.OnInit()
	s := &p.steps[0]
	s.form = op.FormState{Op: p.op(0), Base: "/proxy/demo", State: request.State{Params: map[string][]string{}, Body: body}}
	for _, prm := range params {
		s.form.State.Params[prm.In+":"+prm.Name] = slices.Clone(prm.Values)
	}
	s.form.Validate()
	s.carried, s.bodyFrom, s.prepared = params, bodyFrom, true
	return p
}

func TestTheCurrentStepIsTheOperationsFormWithItsCarriedValuesMarked(t *testing.T) {
	p := prepared(t, []catalog.WalkParam{
		{Name: "parent", In: "path", Values: []string{"p/7"}, From: "$steps.search.outputs.id"},
		{Name: "limit", In: "query", Values: []string{"3"}},
	}, `{"name":"Ada"}`, []catalog.WalkParam{{Name: "/name", In: "body", Values: []string{"Ada"}, From: "$inputs.who"}})
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

	// An edit is marked as such, in a parameter and in the body.
	p.steps[0].form.SetValue("path:parent", 0, "p/8")
	p.steps[0].form.State.Body = `{"name":"Bob"}`
	html = app.HTMLString(p)
	if n := strings.Count(html, "edited · was from"); n != 2 {
		t.Errorf("after editing both carried values the step shows %d edited marks; want 2\n%s", n, html)
	}
}

func TestAtPointer(t *testing.T) {
	doc := map[string]any{"messages": []any{map[string]any{"content": "hi", "n": 2.0}}, "a/b": "slash"}
	for _, tc := range []struct {
		ptr, want string
		ok        bool
	}{
		{"/messages/0/content", "hi", true},
		{"/messages/0/n", "2", true},
		{"/a~1b", "slash", true},
		{"/messages/1/content", "", false},
		{"/messages/x", "", false},
		{"/missing", "", false},
	} {
		if got, ok := op.AtPointer(doc, tc.ptr); got != tc.want || ok != tc.ok {
			t.Errorf("atPointer(%s): got %q, %v; want %q, %v", tc.ptr, got, ok, tc.want, tc.ok)
		}
	}
}
