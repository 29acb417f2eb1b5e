package walkthrough

import (
	"encoding/json"

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
			return catalog.WalkRunAnswer{Error: err.Error()}
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
