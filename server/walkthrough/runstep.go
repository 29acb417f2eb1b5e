package walkthrough

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"loupe/app/catalog"
	"loupe/server/walkthrough/flow"
)

// RunStep serves the run protocol (catalog.WalkRunRequest): it starts a run or continues it
// with the answer to its last call, and returns the next call with the steps judged on the
// way and the state to send back.
func (w *Walkthrough) RunStep(req catalog.WalkRunRequest) catalog.WalkRunAnswer {
	var run *flow.Run
	if len(req.State) == 0 {
		wf, err := w.WorkflowByID(req.Workflow)
		if err != nil {
			return catalog.WalkRunAnswer{Error: err.Error()}
		}
		inputs, err := w.Values(wf, req.Inputs)
		if err != nil {
			ans := catalog.WalkRunAnswer{Error: err.Error()}
			var ie *InputError
			if errors.As(err, &ie) {
				ans.Error, ans.Input = "Input "+ie.Input+": "+ie.Msg, ie.Input
			}
			return ans
		}
		if run, err = flow.Start(w.Doc, wf.ID, inputs, flow.Options{}); err != nil {
			return catalog.WalkRunAnswer{Error: err.Error()}
		}
	} else {
		var st flow.State
		if err := json.Unmarshal(req.State, &st); err != nil {
			return catalog.WalkRunAnswer{Error: "The run's state is not valid JSON: start the walkthrough again."}
		}
		var err error
		if run, err = flow.Resume(w.Doc, &st); err != nil {
			return catalog.WalkRunAnswer{Error: err.Error()}
		}
	}
	var ans catalog.WalkRunAnswer
	if req.Response != nil {
		pending := run.State().Pending
		if pending == nil {
			return catalog.WalkRunAnswer{Error: "The run is not waiting for an answer: start the walkthrough again."}
		}
		events, err := run.Answer(responseOf(pending, req.Response))
		if err != nil {
			return catalog.WalkRunAnswer{Error: err.Error()}
		}
		for _, e := range events {
			ans.Steps = append(ans.Steps, stepResult(e))
		}
	}
	call, events := run.Next()
	for _, e := range events {
		ans.Steps = append(ans.Steps, stepResult(e))
	}
	if call != nil {
		c := w.call(call)
		ans.Call = &c
	}
	st := run.State()
	ans.State, _ = json.Marshal(st)
	ans.Finished, ans.OK, ans.Reason, ans.Budget, ans.Begun = st.Finished, st.OK, st.Error, st.Budget, st.Begun
	if st.Finished && !st.OK && len(ans.Steps) > 0 {
		ans.Hint = ans.Steps[len(ans.Steps)-1].Hint
	}
	if len(st.Outputs) > 0 {
		ans.Outputs = map[string]json.RawMessage{}
		for k, v := range st.Outputs {
			ans.Outputs[k], _ = json.Marshal(v)
		}
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
	out := catalog.WalkCall{Workflow: c.Workflow, Step: c.Step, Depth: c.Depth, Outer: c.Outer, OperationID: c.Operation.ID, After: c.After, Attempt: c.Attempt}
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
	out := catalog.WalkStepResult{Workflow: e.Workflow, Step: e.Step, Depth: e.Depth, Outer: e.Outer, Attempt: e.Attempt, OK: e.OK, Error: e.Error,
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
