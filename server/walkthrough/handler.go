package walkthrough

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"loupe/app/catalog"
	"loupe/server/walkthrough/flow"
)

// maxStepRequest bounds a step or run request: the answer it carries, plus the run so far.
const maxStepRequest = maxBody + 1<<20

// Handler serves the runner's two protocols: POST /walkthroughs/{id}/step (one step of the
// first workflow at a time, catalog.WalkStepRequest: today's runner page) and POST
// /walkthroughs/{id}/run (any workflow, its state carried by the browser,
// catalog.WalkRunRequest). It holds no credential and calls no API: the browser sends each
// request through the proxy. set returns the walkthroughs (they change on reload).
func Handler(set func() *Set) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		s := set()
		wt := s.Get(r.PathValue("id"))
		if wt == nil {
			w.WriteHeader(http.StatusNotFound)
			json.NewEncoder(w).Encode(catalog.WalkStepAnswer{Error: fmt.Sprintf("There is no walkthrough %q. The walkthroughs are: %s.",
				r.PathValue("id"), strings.Join(s.IDs(), ", "))})
			return
		}
		body := http.MaxBytesReader(w, r.Body, maxStepRequest)
		if strings.HasSuffix(r.URL.Path, "/run") {
			var req catalog.WalkRunRequest
			if err := json.NewDecoder(body).Decode(&req); err != nil {
				w.WriteHeader(http.StatusBadRequest)
				json.NewEncoder(w).Encode(catalog.WalkRunAnswer{Error: "The run request is not valid JSON: " + err.Error()})
				return
			}
			json.NewEncoder(w).Encode(wt.RunStep(req))
			return
		}
		var req catalog.WalkStepRequest
		if err := json.NewDecoder(body).Decode(&req); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(catalog.WalkStepAnswer{Error: "The step request is not valid JSON: " + err.Error()})
			return
		}
		json.NewEncoder(w).Encode(wt.Step(req))
	})
}

// Step serves today's runner one step of the first workflow at a time: given the run so far
// (inputs, earlier steps' outputs), the step's request; given also its answer, what became of
// its criteria, its outputs and the next step (as the run protocol would go: a goto's target,
// the step itself for a retry, none at an end or a failure).
func (w *Walkthrough) Step(req catalog.WalkStepRequest) catalog.WalkStepAnswer {
	wf := w.Workflow
	i := wf.StepIndex(req.Step)
	if i < 0 {
		return catalog.WalkStepAnswer{Error: fmt.Sprintf("walkthrough %s has no step %q", w.ID, req.Step)}
	}
	if wf.Steps[i].WorkflowID != "" {
		return catalog.WalkStepAnswer{Error: fmt.Sprintf("step %s runs workflow %s: this runner runs steps that call an operation; run the walkthrough with `loupe walk %s`", req.Step, wf.Steps[i].WorkflowID, w.ID)}
	}
	inputs, err := w.Values(wf, req.Inputs)
	if err != nil {
		return catalog.WalkStepAnswer{Error: err.Error()}
	}
	f := flow.Frame{Workflow: wf.ID, Step: i, Inputs: flow.WithDefaults(wf.Inputs, inputs), Outputs: map[string]map[string]any{}}
	for id, outs := range req.Outputs {
		f.Outputs[id] = map[string]any{}
		for name, raw := range outs {
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				return catalog.WalkStepAnswer{Error: fmt.Sprintf("output %s of step %s is not JSON", name, id)}
			}
			f.Outputs[id][name] = v
		}
	}
	run, err := flow.Resume(w.Doc, &flow.State{Target: wf.ID, Stack: []flow.Frame{f}})
	if err != nil {
		return catalog.WalkStepAnswer{Error: err.Error()}
	}
	call, events := run.Next()
	if call == nil {
		ans := catalog.WalkStepAnswer{Error: fmt.Sprintf("step %s cannot run yet", req.Step)}
		if len(events) > 0 && events[0].Error != "" {
			ans.Error = fmt.Sprintf("step %s: %s. Run the steps before it first.", req.Step, events[0].Error)
		}
		return ans
	}
	wc := w.call(call)
	if req.Response == nil {
		return catalog.WalkStepAnswer{OK: true, Params: wc.Params, Body: wc.Body, BodyFrom: wc.BodyFrom}
	}
	events, err = run.Answer(responseOf(call, req.Response))
	if err != nil || len(events) == 0 {
		return catalog.WalkStepAnswer{Error: fmt.Sprintf("step %s could not be judged", req.Step)}
	}
	res := stepResult(events[0])
	ans := catalog.WalkStepAnswer{OK: res.OK, Outputs: res.Outputs, Hint: res.Hint}
	for _, c := range res.Criteria {
		ans.Criteria = append(ans.Criteria, catalog.WalkCriterion{Condition: c.Condition, Outcome: c.Outcome})
	}
	if st := run.State(); !st.Finished && len(st.Stack) > 0 && st.Stack[0].Step < len(wf.Steps) {
		ans.Next = wf.Steps[st.Stack[0].Step].ID
	}
	return ans
}

// responseOf is an answer as the runner received it, as the runtime reads it.
func responseOf(call *flow.Call, r *catalog.WalkResponse) *flow.Response {
	h := map[string][]string{}
	for k, v := range r.Headers {
		h[http.CanonicalHeaderKey(k)] = []string{v}
	}
	if r.ContentType != "" {
		h["Content-Type"] = []string{r.ContentType}
	}
	out := &flow.Response{Status: r.Status, Header: h, Method: call.Operation.Method, Body: DecodeBody(r.ContentType, []byte(r.Body))}
	if r.Status == 0 {
		out.Err = "the runner got no answer"
	}
	return out
}

// call is a call as the runner shows and sends it.
func (w *Walkthrough) call(c *flow.Call) catalog.WalkCall {
	out := catalog.WalkCall{Workflow: c.Workflow, Step: c.Step, Depth: c.Depth, OperationID: c.Operation.ID, After: c.After, Attempt: c.Attempt}
	if api := w.APIs[c.Operation.Source]; api != nil {
		out.API = api.Slug
	}
	for _, p := range c.Params {
		out.Params = append(out.Params, catalog.WalkParam{Name: p.Name, In: p.In, Values: texts(p.Value), From: p.From})
	}
	if c.Body != nil {
		out.ContentType = c.Body.ContentType
		if s, ok := c.Body.Value.(string); ok {
			out.Body = s
		} else if b, err := json.MarshalIndent(c.Body.Value, "", "  "); err == nil {
			out.Body = string(b)
		}
		for _, f := range c.Body.From {
			v, _ := flow.Pointer(c.Body.Value, f.Pointer)
			out.BodyFrom = append(out.BodyFrom, catalog.WalkParam{Name: f.Pointer, In: "body", Values: []string{flow.Text(v)}, From: f.From})
		}
	}
	return out
}

// stepResult is a judged step as the runner shows it.
func stepResult(e flow.StepResult) catalog.WalkStepResult {
	out := catalog.WalkStepResult{Workflow: e.Workflow, Step: e.Step, Depth: e.Depth, Attempt: e.Attempt, OK: e.OK, Error: e.Error,
		Action: catalog.WalkAction{Kind: e.Action.Kind, Name: e.Action.Name, Target: e.Action.Target, Retry: e.Action.Retry, Limit: e.Action.Limit, After: e.Action.After}}
	if e.Exchange != nil {
		out.Status = e.Exchange.Status
	}
	for _, c := range e.Criteria {
		out.Criteria = append(out.Criteria, catalog.WalkCriterionWhy{Condition: c.Condition, Type: c.Type, Outcome: c.Outcome, Why: c.Why})
	}
	if len(e.Outputs) > 0 {
		out.Outputs = map[string]json.RawMessage{}
		for k, v := range e.Outputs {
			out.Outputs[k], _ = json.Marshal(v)
		}
	}
	if !e.OK {
		out.Hint = hint(e.Exchange != nil, out.Status)
		if e.Exchange == nil && e.Error != "" && strings.Contains(e.Error, "workflow") {
			out.Hint = "The workflow this step runs failed: see its steps above."
		}
	}
	return out
}
