package flow

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func op(path string) *Operation { return &Operation{Source: "api", Method: "GET", Path: path} }

func intp(n int) *int { return &n }

// answers is a stub API: each path answers from its list in turn (the last one again when the
// list is spent).
type answers map[string][]*Response

func (a answers) answer(c *Call, seen map[string]int) *Response {
	list := a[c.Operation.Path]
	if len(list) == 0 {
		return &Response{Status: 404, Body: map[string]any{"error": "no such path"}}
	}
	i := min(seen[c.Operation.Path], len(list)-1)
	seen[c.Operation.Path]++
	return list[i]
}

func ok(body any) *Response { return &Response{Status: 200, Body: body} }

// roundTrip sends a run's state through JSON and resumes it, as the step handler does.
func roundTrip(t *testing.T, doc *Document, r *Run) *Run {
	t.Helper()
	b, err := json.Marshal(r.State())
	if err != nil {
		t.Fatal(err)
	}
	var st State
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	r2, err := Resume(doc, &st)
	if err != nil {
		t.Fatal(err)
	}
	return r2
}

// drive runs a workflow to its end against the stub, its state through JSON at every turn; it
// returns the final state, every step result and every call.
func drive(t *testing.T, doc *Document, wf string, inputs map[string]any, budget int, api answers) (*State, []StepResult, []*Call) {
	t.Helper()
	r, err := Start(doc, wf, inputs, Options{Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	var events []StepResult
	var calls []*Call
	seen := map[string]int{}
	for i := 0; i < 100; i++ {
		call, ev := r.Next()
		events = append(events, ev...)
		if call == nil {
			return r.State(), events, calls
		}
		calls = append(calls, call)
		r = roundTrip(t, doc, r)
		ev, err := r.Answer(api.answer(call, seen))
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, ev...)
		r = roundTrip(t, doc, r)
	}
	t.Fatal("the run did not end in 100 requests")
	return nil, nil, nil
}

// trace is the steps of a run as "step:action", in order.
func trace(events []StepResult) string {
	var parts []string
	for _, e := range events {
		s := e.Step + ":" + e.Action.Kind
		if e.Action.Target != "" {
			s += ">" + e.Action.Target
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func doc(wfs ...*Workflow) *Document {
	return &Document{Version: "1.0.1", Sources: []Source{{Name: "api", URL: "./api.yaml", Type: "openapi"}}, Workflows: wfs}
}

var status200 = []Criterion{{Condition: "$statusCode == 200"}}

// TestRun is the runtime's table: each action, workflows that call workflows, dependsOn,
// retries and goto loops bounded by the step budget.
func TestRun(t *testing.T) {
	loop := &Workflow{ID: "loop", Steps: []*Step{
		{ID: "perform", Operation: op("/perform"), SuccessCriteria: status200},
		{ID: "check", Operation: op("/check"), SuccessCriteria: status200, OnSuccess: []Action{
			{Name: "again", Type: "goto", StepID: "perform", Criteria: []Criterion{{Condition: "$response.body#/more == true"}}},
			{Name: "done", Type: "end"}}},
		{ID: "never", Operation: op("/never")},
	}}
	forever := &Workflow{ID: "forever", Steps: []*Step{
		{ID: "a", Operation: op("/a"), OnSuccess: []Action{{Name: "toB", Type: "goto", StepID: "b"}}},
		{ID: "b", Operation: op("/b"), OnSuccess: []Action{{Name: "toA", Type: "goto", StepID: "a"}}},
	}}
	retry := func(limit int, after float64, then ...Action) *Workflow {
		return &Workflow{ID: "retry", Steps: []*Step{
			{ID: "flaky", Operation: op("/flaky"), SuccessCriteria: status200,
				OnFailure: append([]Action{{Name: "again", Type: "retry", RetryLimit: intp(limit), RetryAfter: after,
					Criteria: []Criterion{{Condition: "$statusCode == 503"}}}}, then...)},
			{ID: "after", Operation: op("/after")},
			{ID: "fallback", Operation: op("/fallback")},
		}}
	}
	unavailable := &Response{Status: 503, Header: map[string][]string{"Retry-After": {"2"}}}
	sub := &Workflow{ID: "place", Inputs: map[string]any{"properties": map[string]any{"qty": map[string]any{"default": float64(1)}}},
		Steps: []*Step{{ID: "order", Operation: &Operation{Source: "api", Method: "POST", Path: "/order"},
			Body:            &Body{ContentType: "application/json", Payload: map[string]any{"pet": "$inputs.pet", "qty": "$inputs.qty", "note": "pet {$inputs.pet}"}},
			SuccessCriteria: []Criterion{{Condition: "$statusCode == 201"}}, Outputs: []Output{{Name: "id", Value: "$response.body#/id"}}}},
		Outputs: []Output{{Name: "orderId", Value: "$steps.order.outputs.id"}}}
	caller := &Workflow{ID: "buy", Steps: []*Step{
		{ID: "find", Operation: op("/find"), Outputs: []Output{{Name: "pet", Value: "$response.body#/0/id"}}},
		{ID: "place", WorkflowID: "place", Parameters: []Param{{Name: "pet", Value: "$steps.find.outputs.pet"}},
			SuccessCriteria: []Criterion{{Condition: "$statusCode == 201"}}, Outputs: []Output{{Name: "order", Value: "$outputs.orderId"}}},
	}, Outputs: []Output{{Name: "order", Value: "$steps.place.outputs.order"}}}
	login := &Workflow{ID: "login", Steps: []*Step{{ID: "token", Operation: op("/token"), Outputs: []Output{{Name: "t", Value: "$response.body#/t"}}}},
		Outputs: []Output{{Name: "token", Value: "$steps.token.outputs.t"}}}
	uses := &Workflow{ID: "uses", DependsOn: []string{"login"}, Steps: []*Step{
		{ID: "me", Operation: op("/me"), Parameters: []Param{{Name: "Authorization", In: "header", Value: "Bearer {$workflows.login.outputs.token}"}}}}}
	jump := &Workflow{ID: "jump", Steps: []*Step{{ID: "first", Operation: op("/a"), OnSuccess: []Action{{Name: "away", Type: "goto", WorkflowID: "login"}}},
		{ID: "skipped", Operation: op("/b")}}}

	for _, tc := range []struct {
		name      string
		doc       *Document
		wf        string
		budget    int
		api       answers
		wantTrace string
		wantOK    bool
		wantErr   string
		check     func(t *testing.T, st *State, events []StepResult, calls []*Call)
	}{
		{"a conditional goto loop ends", doc(loop), "loop", 0, answers{"/perform": {ok(nil)},
			"/check": {ok(map[string]any{"more": true}), ok(map[string]any{"more": false})}},
			"perform:next check:goto>perform perform:next check:end", true, "", nil},
		{"an unconditional goto loop is stopped by the step budget", doc(forever), "forever", 7, answers{"/a": {ok(nil)}, "/b": {ok(nil)}},
			"a:goto>b b:goto>a a:goto>b b:goto>a a:goto>b b:goto>a a:goto>b", false, "the step budget of 7 steps is spent at step b", nil},
		{"retries until the step succeeds, waiting as Retry-After says", doc(retry(3, 0.5)), "retry", 0,
			answers{"/flaky": {unavailable, {Status: 503}, ok(nil)}, "/after": {ok(nil)}, "/fallback": {ok(nil)}},
			"flaky:retry flaky:retry flaky:next after:next fallback:next", true, "",
			func(t *testing.T, st *State, ev []StepResult, calls []*Call) {
				if calls[1].After != 2 || calls[2].After != 0.5 || calls[2].Attempt != 3 {
					t.Errorf("got waits %v, %v and attempt %d; want 2 (Retry-After), 0.5 (retryAfter) and attempt 3", calls[1].After, calls[2].After, calls[2].Attempt)
				}
				if ev[1].Action.Retry != 2 || ev[1].Action.Limit != 3 {
					t.Errorf("got retry %d of %d; want 2 of 3", ev[1].Action.Retry, ev[1].Action.Limit)
				}
			}},
		{"a spent retry limit gives way to the next failure action", doc(retry(1, 0, Action{Name: "fallback", Type: "goto", StepID: "fallback"})), "retry", 0,
			answers{"/flaky": {{Status: 503}}, "/fallback": {ok(nil)}},
			"flaky:retry flaky:goto>fallback fallback:next", true, "", nil},
		{"retryLimit 0 retries never", doc(retry(0, 0)), "retry", 0, answers{"/flaky": {{Status: 503}}},
			"flaky:fail", false, "step flaky failed", nil},
		{"a failure end ends the workflow failed", doc(retry(0, 0, Action{Name: "stop", Type: "end"})), "retry", 0, answers{"/flaky": {{Status: 500}}},
			"flaky:end", false, "its failure action stop ended the workflow", nil},
		{"a retry that runs another step first", doc(&Workflow{ID: "r", Steps: []*Step{
			{ID: "login", Operation: op("/token")},
			{ID: "get", Operation: op("/get"), SuccessCriteria: status200, OnFailure: []Action{{Name: "relogin", Type: "retry", StepID: "login"}}}}}),
			"r", 0, answers{"/token": {ok(nil)}, "/get": {{Status: 401}, ok(nil)}},
			"login:next get:retry>login login:retry>get get:next", true, "", nil},
		{"a step that runs a workflow, with inputs, outputs and its last answer", doc(caller, sub), "buy", 0,
			answers{"/find": {ok([]any{map[string]any{"id": float64(7)}})}, "/order": {{Status: 201, Body: map[string]any{"id": "o-9"}}}},
			"find:next order:next place:next", true, "",
			func(t *testing.T, st *State, ev []StepResult, calls []*Call) {
				want := map[string]any{"pet": float64(7), "qty": float64(1), "note": "pet 7"}
				if !reflect.DeepEqual(calls[1].Body.Value, want) || calls[1].Depth != 1 {
					t.Errorf("got body %v at depth %d; want %v at depth 1", calls[1].Body.Value, calls[1].Depth, want)
				}
				if st.Outputs["order"] != "o-9" {
					t.Errorf("got outputs %v; want order o-9", st.Outputs)
				}
			}},
		{"dependsOn runs the workflow depended on first", doc(login, uses), "uses", 0,
			answers{"/token": {ok(map[string]any{"t": "abc"})}, "/me": {ok(nil)}},
			"token:next me:next", true, "",
			func(t *testing.T, st *State, ev []StepResult, calls []*Call) {
				if got := calls[1].Params[0].Value; got != "Bearer abc" {
					t.Errorf("got Authorization %v; want Bearer abc", got)
				}
			}},
		{"a goto to a workflow ends the workflow that went", doc(jump, login), "jump", 0,
			answers{"/a": {ok(nil)}, "/token": {ok(map[string]any{"t": "x"})}},
			"first:goto>login token:next", true, "", nil},
		{"an expression that reaches nothing fails its step before any request", doc(&Workflow{ID: "w", Steps: []*Step{
			{ID: "a", Operation: op("/a"), Outputs: []Output{{Name: "id", Value: "$response.body#/id"}}},
			{ID: "b", Operation: op("/b"), Parameters: []Param{{Name: "id", In: "path", Value: "$steps.a.outputs.nope"}}}}}),
			"w", 0, answers{"/a": {ok(map[string]any{"id": float64(1)})}},
			"a:next b:fail", false, "parameter id: $steps.a.outputs.nope: there is no output of step a nope",
			func(t *testing.T, st *State, ev []StepResult, calls []*Call) {
				if len(calls) != 1 {
					t.Errorf("got %d calls; want 1: step b's request cannot be built", len(calls))
				}
			}},
		{"a retry that runs a workflow first, then the step again", doc(&Workflow{ID: "w", Steps: []*Step{
			{ID: "get", Operation: op("/get"), SuccessCriteria: status200, OnFailure: []Action{{Name: "login", Type: "retry", WorkflowID: "login", RetryLimit: intp(2)}}}}}, login),
			"w", 0, answers{"/get": {{Status: 401}, ok(nil)}, "/token": {ok(map[string]any{"t": "x"})}},
			"get:retry>login token:next get:next", true, "", nil},
		{"a failure goto to a workflow: its outcome is the run's", doc(&Workflow{ID: "w", Steps: []*Step{
			{ID: "get", Operation: op("/get"), SuccessCriteria: status200, OnFailure: []Action{{Name: "fallback", Type: "goto", WorkflowID: "login"}}},
			{ID: "never", Operation: op("/never")}}}, login),
			"w", 0, answers{"/get": {{Status: 500}}, "/token": {ok(map[string]any{"t": "x"})}},
			"get:goto>login token:next", true, "", nil},
		{"no answer fails the step", doc(&Workflow{ID: "w", Steps: []*Step{{ID: "a", Operation: op("/a")}}}), "w", 0,
			answers{"/a": {{Status: 0, Err: "connection refused"}}}, "a:fail", false, "no answer arrived: connection refused", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, events, calls := drive(t, tc.doc, tc.wf, nil, tc.budget, tc.api)
			if got := trace(events); got != tc.wantTrace {
				t.Errorf("got trace\n%s\nwant\n%s", got, tc.wantTrace)
			}
			if st.OK != tc.wantOK || !strings.Contains(st.Error, tc.wantErr) {
				t.Errorf("got ok=%v error %q; want ok=%v error containing %q", st.OK, st.Error, tc.wantOK, tc.wantErr)
			}
			if tc.check != nil {
				tc.check(t, st, events, calls)
			}
		})
	}
}

// TestCallValues resolves a call's parameters and body: carried values are marked with their
// expression, replacements apply, and the step's criteria report why each held or failed.
func TestCallValues(t *testing.T) {
	d := doc(&Workflow{ID: "w", Inputs: map[string]any{"properties": map[string]any{"q": map[string]any{"default": "cats"}}}, Steps: []*Step{
		{ID: "a", Operation: &Operation{Source: "api", Method: "POST", Path: "/a"},
			Parameters: []Param{{Name: "q", In: "query", Value: "$inputs.q"}, {Name: "n", In: "query", Value: float64(3)}},
			Body: &Body{Payload: map[string]any{"items": []any{"x", "$inputs.q"}, "fixed": true},
				Replacements: []Replacement{{Target: "/fixed", Value: "$inputs.q"}, {Target: "/items/-", Value: "z"}}},
			SuccessCriteria: []Criterion{{Condition: "$statusCode == 200"}, {Condition: "$request.query.q == 'CATS'"}, {Condition: "$response.body#/n > 5"}}}}})
	r, err := Start(d, "w", nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	call, _ := r.Next()
	if got, want := fmt.Sprint(call.Params), "[{q query cats $inputs.q} {n query 3 }]"; got != want {
		t.Errorf("got params %s; want %s", got, want)
	}
	wantBody := map[string]any{"items": []any{"x", "cats", "z"}, "fixed": "cats"}
	if !reflect.DeepEqual(call.Body.Value, wantBody) || len(call.Body.From) != 1 || call.Body.From[0] != (Carried{"/items/1", "$inputs.q"}) {
		t.Errorf("got body %v from %v; want %v with /items/1 from $inputs.q", call.Body.Value, call.Body.From, wantBody)
	}
	ev, _ := r.Answer(ok(map[string]any{"n": float64(2)}))
	var got []string
	for _, c := range ev[0].Criteria {
		got = append(got, c.Outcome+": "+c.Why)
	}
	want := []string{"passed: $statusCode = 200", `passed: $request.query.q = "cats"`, "failed: $response.body#/n = 2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got criteria\n%q\nwant\n%q", got, want)
	}
}

// TestReplaceXML sets the text an XPath selects in an XML payload.
func TestReplaceXML(t *testing.T) {
	got, err := Replace(`<order><petId>0</petId><note>x</note></order>`, "/order/petId", float64(7))
	if err != nil || got != `<order><petId>7</petId><note>x</note></order>` {
		t.Errorf("got %v, %v; want the petId set to 7", got, err)
	}
	if _, err := Replace(`<order/>`, "/order/missing", "x"); err == nil || !strings.Contains(err.Error(), "selects nothing") {
		t.Errorf("got %v; want an error saying the target selects nothing", err)
	}
	if _, err := Replace(map[string]any{"a": map[string]any{}}, "/b/c", "x"); err == nil || !strings.Contains(err.Error(), `no member "b"`) {
		t.Errorf("got %v; want an error naming the missing member", err)
	}
}
