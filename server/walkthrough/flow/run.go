package flow

import (
	"errors"
	"fmt"
	"slices"
)

// Run is a workflow being run: Next says which request to send, Answer takes its answer.
// A Run is not safe for concurrent use.
type Run struct {
	doc    *Document
	st     *State
	events []StepResult
}

// Start begins a run of the workflow with the given inputs (defaults filled in from its
// schema), after the workflows it depends on.
func Start(doc *Document, workflow string, inputs map[string]any, opts Options) (*Run, error) {
	if doc.Workflow(workflow) == nil {
		return nil, fmt.Errorf("there is no workflow %q; the workflows are: %s", workflow, workflowIDs(doc))
	}
	order, err := dependencies(doc, workflow)
	if err != nil {
		return nil, err
	}
	st := &State{Target: workflow, Budget: opts.Budget, Workflows: map[string]*WorkflowResult{}}
	if st.Budget <= 0 {
		st.Budget = DefaultBudget
	}
	for _, id := range order {
		in := opts.Inputs[id]
		if id == workflow {
			in = inputs
		}
		st.Queue = append(st.Queue, Queued{Workflow: id, Inputs: in})
	}
	return &Run{doc: doc, st: st}, nil
}

// Resume continues a run from its state (as Run.State gave it, through JSON).
func Resume(doc *Document, st *State) (*Run, error) {
	if st == nil {
		return nil, errors.New("no run state")
	}
	for _, f := range st.Stack {
		wf := doc.Workflow(f.Workflow)
		if wf == nil || f.Step < 0 || f.Step > len(wf.Steps) {
			return nil, fmt.Errorf("the run state names workflow %q at step %d, which this document does not have: start again", f.Workflow, f.Step)
		}
	}
	if st.Workflows == nil {
		st.Workflows = map[string]*WorkflowResult{}
	}
	if st.Budget <= 0 {
		st.Budget = DefaultBudget
	}
	return &Run{doc: doc, st: st}, nil
}

// State returns the run's state.
func (r *Run) State() *State { return r.st }

// Next returns the request to send next, or nil when the run is over, with the steps judged
// on the way (a step whose request could not be built, a step that ran a workflow).
func (r *Run) Next() (*Call, []StepResult) {
	st := r.st
	for !st.Finished && st.Pending == nil {
		if len(st.Stack) == 0 {
			r.startQueued()
			continue
		}
		f := r.top()
		wf := r.doc.Workflow(f.Workflow)
		if f.Step >= len(wf.Steps) {
			r.complete(true, "")
			continue
		}
		step := wf.Steps[f.Step]
		if st.Begun >= st.Budget {
			r.finish(false, fmt.Sprintf("the step budget of %d steps is spent at step %s of workflow %s: a goto loop or retries that do not end", st.Budget, step.ID, wf.ID))
			break
		}
		st.Begun++
		ctx := r.context(f, nil)
		if step.WorkflowID != "" {
			inputs, err := paramInputs(ctx, step.Parameters)
			if err != nil {
				r.judge(step, nil, nil, err)
				continue
			}
			r.push(step.WorkflowID, inputs, "step")
			continue
		}
		call, err := r.call(f, step, ctx)
		if err != nil {
			r.judge(step, nil, nil, err)
			continue
		}
		st.Pending = call
	}
	return st.Pending, r.drain()
}

// Answer judges the pending request's step by its answer and moves on; it returns the steps
// judged (this one first).
func (r *Run) Answer(resp *Response) ([]StepResult, error) {
	call := r.st.Pending
	if call == nil {
		return nil, errors.New("no request is waiting for an answer")
	}
	r.st.Pending = nil
	f := r.top()
	step := r.doc.Workflow(f.Workflow).Steps[f.Step]
	ex := exchange(call, resp)
	var cause error
	if resp.Status == 0 {
		cause = fmt.Errorf("no answer arrived: %s", resp.Err)
	}
	r.judge(step, ex, nil, cause)
	return r.drain(), nil
}

func (r *Run) drain() []StepResult {
	out := r.events
	r.events = nil
	return out
}

func (r *Run) top() *Frame { return &r.st.Stack[len(r.st.Stack)-1] }

// outer names the steps of the frames below the top, each as "workflowId/stepId": the steps
// whose workflows are running the top one.
func (r *Run) outer() []string {
	var out []string
	for _, f := range r.st.Stack[:max(len(r.st.Stack)-1, 0)] {
		if wf := r.doc.Workflow(f.Workflow); wf != nil && f.Step < len(wf.Steps) {
			out = append(out, f.Workflow+"/"+wf.Steps[f.Step].ID)
		}
	}
	return out
}

// startQueued starts the next workflow of the queue, or finishes the run.
func (r *Run) startQueued() {
	st := r.st
	if len(st.Queue) == 0 {
		r.finish(true, "")
		return
	}
	q := st.Queue[0]
	st.Queue = st.Queue[1:]
	for _, dep := range r.doc.Workflow(q.Workflow).DependsOn {
		if res := st.Workflows[dep]; res == nil || !res.OK {
			r.finish(false, fmt.Sprintf("workflow %s depends on %s, which did not succeed", q.Workflow, dep))
			return
		}
	}
	r.push(q.Workflow, q.Inputs, "")
}

func (r *Run) push(workflow string, inputs map[string]any, ret string) {
	wf := r.doc.Workflow(workflow)
	r.st.Stack = append(r.st.Stack, Frame{Workflow: workflow, Inputs: WithDefaults(wf.Inputs, inputs), Return: ret,
		Outputs: map[string]map[string]any{}, Retries: map[string]int{}})
}

func (r *Run) finish(ok bool, why string) {
	r.st.Finished, r.st.OK, r.st.Error = true, ok, why
	r.st.Stack, r.st.Queue, r.st.Pending = nil, nil, nil
}

// context is what the expressions of the top workflow read.
func (r *Run) context(f *Frame, ex *Exchange) *Context {
	return &Context{Inputs: f.Inputs, Steps: f.Outputs, Workflows: r.st.Workflows, Doc: r.doc, Exchange: ex}
}

// judge decides a step: its criteria (all of them, each with why), its outputs, then the
// action to take. cause is why the step failed before its criteria (no answer, a request that
// could not be built, a workflow that failed).
func (r *Run) judge(step *Step, ex *Exchange, childOutputs map[string]any, cause error) {
	f := r.top()
	if f.Retries == nil {
		f.Retries = map[string]int{}
	}
	if f.Outputs == nil {
		f.Outputs = map[string]map[string]any{}
	}
	res := StepResult{Workflow: f.Workflow, Step: step.ID, Depth: len(r.st.Stack) - 1, Outer: r.outer(), Attempt: f.Retries[step.ID] + 1}
	if step.WorkflowID == "" {
		res.Exchange = ex
	}
	ctx := r.context(f, ex)
	ctx.Outputs = childOutputs
	ok := cause == nil
	if cause != nil {
		res.Error = cause.Error()
	}
	for _, c := range step.SuccessCriteria {
		if cause != nil {
			res.Criteria = append(res.Criteria, CriterionResult{Condition: c.Label(), Type: c.effectiveType(), Outcome: NotChecked})
			continue
		}
		cr := c.Evaluate(ctx)
		ok = ok && cr.Outcome == Passed
		res.Criteria = append(res.Criteria, cr)
	}
	if ok {
		outs := map[string]any{}
		for _, o := range step.Outputs {
			v, err := o.Eval(ctx)
			if err != nil {
				ok, res.Error = false, fmt.Sprintf("output %s: %v", o.Name, err)
				break
			}
			outs[o.Name] = v
		}
		if ok {
			f.Outputs[step.ID], res.Outputs = outs, outs
		}
	}
	if ex != nil {
		f.Last = ex
	}
	res.OK = ok
	i := len(r.events)
	r.events = append(r.events, res)
	r.events[i].Action = r.act(step, ok, ctx, res.Error)
}

func workflowIDs(doc *Document) string {
	var ids []string
	for _, w := range doc.Workflows {
		ids = append(ids, w.ID)
	}
	return fmt.Sprint(ids)
}

// dependencies returns the workflows to run for workflow, in order: what it depends on
// (transitively, each once), then itself. A cycle is an error.
func dependencies(doc *Document, workflow string) ([]string, error) {
	var order, path []string
	var visit func(id string) error
	visit = func(id string) error {
		if slices.Contains(order, id) {
			return nil
		}
		if slices.Contains(path, id) {
			return fmt.Errorf("dependsOn goes round in a circle: %v", append(path, id))
		}
		wf := doc.Workflow(id)
		if wf == nil {
			return fmt.Errorf("dependsOn names workflow %q, which the document does not have", id)
		}
		path = append(path, id)
		for _, dep := range wf.DependsOn {
			if err := visit(dep); err != nil {
				return err
			}
		}
		path = path[:len(path)-1]
		order = append(order, id)
		return nil
	}
	return order, visit(workflow)
}
