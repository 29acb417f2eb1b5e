package walkthrough

import (
	"context"
	"time"

	"loupe/server/walkthrough/flow"
)

// Report is what a run did, step by step.
type Report struct {
	// Walkthrough and Workflow are what ran; Inputs the values it ran with.
	Walkthrough *Walkthrough
	Workflow    string
	Inputs      map[string]any
	// Steps are the steps judged, in order (a retried step once per attempt; the steps of
	// called workflows with their Depth).
	Steps []StepReport
	// OK is true when the workflow succeeded; Err says why not.
	OK  bool
	Err string
	// Outputs are the workflow's outputs, when it succeeded.
	Outputs map[string]any
	// Duration is the run's wall time.
	Duration time.Duration
}

// StepReport is one judged step and how long its request took.
type StepReport struct {
	flow.StepResult
	// Duration is from sending the request to the end of its answer; 0 when none was sent.
	Duration time.Duration
}

// Walk runs a workflow of the walkthrough (its first when workflow is empty) headless,
// sending its requests through x, waiting as retries ask. It returns an error only when the
// inputs are wrong (*InputError) or the workflow does not exist; a step that fails is in the
// report.
func Walk(ctx context.Context, w *Walkthrough, workflow string, given map[string]string, x *Executor, opts flow.Options) (*Report, error) {
	wf, err := w.WorkflowByID(workflow)
	if err != nil {
		return nil, err
	}
	inputs, err := w.Values(wf, given)
	if err != nil {
		return nil, err
	}
	run, err := flow.Start(w.Doc, wf.ID, inputs, opts)
	if err != nil {
		return nil, err
	}
	exec := &Executor{Base: x.Base, Client: WithJar(x.Client)}
	rep := &Report{Walkthrough: w, Workflow: wf.ID, Inputs: flow.WithDefaults(wf.Inputs, inputs)}
	start := time.Now()
	add := func(events []flow.StepResult, took time.Duration) {
		for i, e := range events {
			sr := StepReport{StepResult: e}
			if i == 0 {
				sr.Duration = took
			}
			rep.Steps = append(rep.Steps, sr)
		}
	}
	for {
		call, events := run.Next()
		add(events, 0)
		if call == nil {
			break
		}
		if call.After > 0 {
			t := time.NewTimer(time.Duration(call.After * float64(time.Second)))
			select {
			case <-ctx.Done():
				t.Stop()
			case <-t.C:
			}
		}
		sent := time.Now()
		resp := exec.Send(ctx, w, call)
		if ctx.Err() != nil && resp.Status == 0 {
			resp.Err = "the run was stopped: " + ctx.Err().Error()
		}
		events, err := run.Answer(resp)
		if err != nil {
			return nil, err
		}
		add(events, time.Since(sent))
		if ctx.Err() != nil {
			break
		}
	}
	st := run.State()
	rep.OK, rep.Err, rep.Outputs, rep.Duration = st.OK, st.Error, st.Outputs, time.Since(start)
	if !st.Finished {
		rep.OK, rep.Err = false, "the run was stopped before its end: "+context.Cause(ctx).Error()
	}
	return rep, nil
}
