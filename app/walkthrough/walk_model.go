package walkthrough

import (
	"encoding/json"
	"strings"

	"loupe/app/catalog"
	"loupe/app/chatstream"
	"loupe/app/op"
	"loupe/app/ui"
)

// This file holds what the page knows of a run: the service's answers (the run protocol,
// catalog.WalkRunAnswer) gathered into the steps judged so far, the request to send next and
// where each belongs in the document's outline.

// walkEvent is a judged step as the page shows it: the service's verdict and, for a step that
// sent a request, what was sent and answered.
type walkEvent struct {
	res     catalog.WalkStepResult
	api     *catalog.API
	op      *catalog.Operation
	ex      *op.Exchange        // the request as sent and its answer; nil for a step that sent none
	stream  *chatstream.Turn    // a streamed chat answer, shown as the chat shows it
	carried []catalog.WalkParam // the values carried into its request, each with its source
}

// walkRun is a run of a workflow, as far as it went.
type walkRun struct {
	state    json.RawMessage   // to send back with the next request
	call     *catalog.WalkCall // the request to send next; nil before the run starts and at its end
	form     op.FormState      // the call's form: what it shows is what is sent
	callOp   *catalog.Operation
	callAPI  *catalog.API
	events   []walkEvent
	started  bool // the service answered the run's start
	finished bool
	ok       bool
	reason   string
	hint     string
	outputs  map[string]json.RawMessage
	budget   int
	begun    int
	restored map[string]bool // steps shown passed from a link's state, by "workflowId/stepId"
	err      string          // why the service could not go on (not a step's failure)
	errInput string          // the input err is about
	stream   *chatstream.Turn
	waiting  float64 // seconds the call in flight waits before it is sent (a retry's retryAfter)
}

// sent reports whether any step was judged: the inputs can no longer change.
func (r *walkRun) sent() bool { return len(r.events) > 0 || len(r.restored) > 0 }

// apply takes an answer in. done is the step whose request the answer judged (nil when the
// answer starts or resumes the run): its exchange goes with the first step judged. It reports
// whether the run moved on (false: the answer is an error and the run is as it was).
func (r *walkRun) apply(ans *catalog.WalkRunAnswer, done *walkEvent) bool {
	if ans.Error != "" {
		r.err, r.errInput = ans.Error, ans.Input
		if len(ans.Problems) > 0 {
			r.err += " " + problemText(ans.Problems)
		}
		return false
	}
	r.err, r.errInput = "", ""
	for i, s := range ans.Steps {
		ev := walkEvent{res: s}
		if i == 0 && done != nil {
			ev.api, ev.op, ev.ex, ev.stream, ev.carried = done.api, done.op, done.ex, done.stream, done.carried
		}
		r.events = append(r.events, ev)
	}
	r.started = true
	r.state, r.call = ans.State, ans.Call
	r.finished, r.ok, r.reason, r.hint, r.outputs = ans.Finished, ans.OK, ans.Reason, ans.Hint, ans.Outputs
	r.budget, r.begun = ans.Budget, ans.Begun
	return true
}

// problemText lists problems as one line each: "line 12, /workflows/0: what is wrong".
func problemText(ps []catalog.WalkProblem) string {
	var lines []string
	for _, p := range ps {
		lines = append(lines, where(p)+p.Message)
	}
	return strings.Join(lines, "; ")
}

// where names a problem's place: "line 12, /workflows/0: ", or "" when it has none.
func where(p catalog.WalkProblem) string {
	var parts []string
	if p.Line > 0 {
		parts = append(parts, "line "+ui.Itoa(p.Line))
	}
	if p.Pointer != "" {
		parts = append(parts, p.Pointer)
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ", ") + ": "
}

// topOf is the step of a workflow run at the top that a step belongs to: the step itself at
// depth 0, else the step whose workflow called it (its Outer's first).
func topOf(workflow, step string, outer []string) string {
	if len(outer) > 0 {
		return outer[0]
	}
	return workflow + "/" + step
}

// status is a step's status in the outline (top is "workflowId/stepId"): running or current
// when the next request is its own or that of a workflow it runs, else its last verdict
// (passed or failed), passed when a link's state says it did, "" before it ran.
func (r *walkRun) status(top string, sending bool) string {
	if c := r.call; c != nil && topOf(c.Workflow, c.Step, c.Outer) == top {
		if sending {
			return "running"
		}
		return "current"
	}
	for i := len(r.events) - 1; i >= 0; i-- {
		if e := r.events[i].res; e.Depth == 0 && e.Workflow+"/"+e.Step == top {
			if e.OK {
				return "passed"
			}
			return "failed"
		}
	}
	if r.restored[top] {
		return "passed"
	}
	return ""
}

// eventsOf returns the events that belong to a step of the outline: its own verdicts and
// those of the steps of the workflows it ran.
func (r *walkRun) eventsOf(top string) []*walkEvent {
	var out []*walkEvent
	for i := range r.events {
		e := &r.events[i]
		if topOf(e.res.Workflow, e.res.Step, e.res.Outer) == top {
			out = append(out, e)
		}
	}
	return out
}

// failed reports whether a step's last verdict is a failure the run did not recover from.
func (r *walkRun) failed() bool { return r.finished && !r.ok }

// restoredFrom marks the steps a run's state says succeeded (the outputs its workflows hold),
// for a run resumed from a link.
func restoredFrom(state json.RawMessage) map[string]bool {
	var st struct {
		Stack []struct {
			Workflow string                     `json:"workflow"`
			Outputs  map[string]json.RawMessage `json:"outputs"`
		} `json:"stack"`
	}
	if json.Unmarshal(state, &st) != nil || len(st.Stack) == 0 {
		return nil
	}
	out := map[string]bool{}
	for id := range st.Stack[0].Outputs {
		out[st.Stack[0].Workflow+"/"+id] = true
	}
	return out
}

// runOrder lists the workflows a run of wf runs at the top, in order: those it depends on
// (transitively, each once), then wf itself, as the service runs them.
func runOrder(w *catalog.Walkthrough, wf string) []*catalog.WalkWorkflow {
	var out []*catalog.WalkWorkflow
	seen := map[string]bool{}
	var visit func(id string, depth int)
	visit = func(id string, depth int) {
		f := w.Workflow(id)
		if f == nil || seen[f.ID] || depth > 32 {
			return
		}
		seen[f.ID] = true
		for _, d := range f.DependsOn {
			visit(d, depth+1)
		}
		out = append(out, f)
	}
	visit(wf, 0)
	return out
}

// carriedOf lists the values of a request that were carried from elsewhere (an input, an
// earlier step's output), its parameters' and its body's.
func carriedOf(c *catalog.WalkCall) []catalog.WalkParam {
	var out []catalog.WalkParam
	for _, v := range append(c.Params[:len(c.Params):len(c.Params)], c.BodyFrom...) {
		if v.From != "" {
			out = append(out, v)
		}
	}
	return out
}
