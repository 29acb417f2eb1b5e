package walkthrough

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pb33f/libopenapi/arazzo"
	high "github.com/pb33f/libopenapi/datamodel/high/arazzo"
)

// Report is what a run of a walkthrough did, step by step.
type Report struct {
	// Walkthrough is what ran, with Inputs the values it ran with.
	Walkthrough *Walkthrough
	Inputs      map[string]any
	// Steps are the steps run, in order (a retried step appears once per attempt).
	Steps []StepReport
	// OK is true when every step ran and every success criterion held.
	OK bool
	// Err says why the run stopped early; nil when OK.
	Err error
	// Outputs are the workflow's outputs, when it succeeded.
	Outputs map[string]any
	// Duration is the run's wall time.
	Duration time.Duration
}

// StepReport is one step of a run.
type StepReport struct {
	// ID is the stepId and OperationID the operation it called.
	ID, OperationID string
	// Exchange is the request sent and its status; its Method is empty when none was sent.
	Exchange Exchange
	// OK is true when the step's request was answered and all its criteria held.
	OK bool
	// Criteria are the step's success criteria, each with what became of it.
	Criteria []CriterionReport
	// Err says what went wrong; nil when OK.
	Err error
	// Outputs are the values the step gave to later steps.
	Outputs map[string]any
}

// CriterionReport is one success criterion of a step.
type CriterionReport struct {
	// Condition is the criterion's condition as written (with its context, when it has one).
	Condition string
	// Outcome is Passed, Failed or NotChecked (the step stopped before it).
	Outcome Outcome
}

// Outcome is what became of a success criterion.
type Outcome string

// The outcomes of a success criterion.
const (
	Passed     Outcome = "passed"
	Failed     Outcome = "failed"
	NotChecked Outcome = "not checked"
)

// InputError is a walkthrough input that is missing, unknown or of the wrong type.
type InputError struct {
	// Walkthrough is the walkthrough's id and Input the input's name.
	Walkthrough, Input string
	// Msg says what is wrong and what to do.
	Msg string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("walkthrough %s: input %s: %s", e.Walkthrough, e.Input, e.Msg)
}

// Values checks the inputs given by name and returns them typed as the workflow declares,
// defaults filled in. A missing required input, an unknown name or a value of the wrong type
// is an *InputError.
func (w *Walkthrough) Values(given map[string]string) (map[string]any, error) {
	out := map[string]any{}
	for name := range given {
		if !hasInput(w.Inputs, name) {
			var names []string
			for _, in := range w.Inputs {
				names = append(names, in.Name)
			}
			return nil, &InputError{w.ID, name, fmt.Sprintf("unknown; this walkthrough takes %s", orNone(names))}
		}
	}
	for _, in := range w.Inputs {
		v, ok := given[in.Name]
		if !ok || v == "" {
			v = in.Default
		}
		if v == "" {
			if in.Required {
				return nil, &InputError{w.ID, in.Name, fmt.Sprintf("required (%s): give it a value", in.Description)}
			}
			continue
		}
		typed, err := typedValue(in.Type, v)
		if err != nil {
			return nil, &InputError{w.ID, in.Name, err.Error()}
		}
		out[in.Name] = typed
	}
	return out, nil
}

func typedValue(typ, v string) (any, error) {
	switch typ {
	case "integer":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", v)
		}
		return n, nil
	case "number":
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", v)
		}
		return f, nil
	case "boolean":
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("%q is not true or false", v)
		}
		return b, nil
	}
	return v, nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "no inputs"
	}
	return strings.Join(names, ", ")
}

// Run runs the walkthrough with libopenapi's Arazzo engine, sending its requests through x.
// It returns an error only when the inputs are wrong (*InputError) or the engine refuses to
// start; a step that fails is in the report.
func Run(ctx context.Context, w *Walkthrough, given map[string]string, x *HTTPExecutor) (*Report, error) {
	inputs, err := w.Values(given)
	if err != nil {
		return nil, err
	}
	var sent []Exchange
	exec := HTTPExecutor{API: x.API, Base: x.Base, Client: withJar(x.Client)}
	exec.Sent = func(e Exchange) {
		sent = append(sent, e)
		if x.Sent != nil {
			x.Sent(e)
		}
	}
	sources := []*arazzo.ResolvedSource{{Name: w.Source, URL: x.Base, Type: "openapi"}}
	engine := arazzo.NewEngine(w.Doc, &exec, sources)
	start := time.Now()
	res, err := engine.RunWorkflow(ctx, w.Workflow.WorkflowId, inputs)
	if err != nil {
		return nil, fmt.Errorf("running walkthrough %s: %w", w.ID, err)
	}
	rep := &Report{Walkthrough: w, Inputs: inputs, OK: res.Success, Err: res.Error, Outputs: res.Outputs, Duration: time.Since(start)}
	for _, sr := range res.Steps {
		step := w.step(sr.StepId)
		s := StepReport{ID: sr.StepId, OK: sr.Success, Err: sr.Error, Outputs: sr.Outputs}
		if step != nil {
			s.OperationID = step.OperationId
		}
		var se *sendError
		if len(sent) > 0 && (sr.StatusCode != 0 || errors.As(sr.Error, &se)) {
			s.Exchange, sent = sent[0], sent[1:]
		}
		s.Criteria = criteria(step, sr)
		rep.OK = rep.OK && s.OK
		rep.Steps = append(rep.Steps, s)
	}
	if !rep.OK && rep.Err == nil {
		rep.Err = errors.New("a step failed and the workflow went on (onFailure)")
	}
	return rep, nil
}

// criteria tells what became of each of the step's success criteria: the engine checks them in
// order and stops at the first that fails (arazzo.StepFailureError names it).
func criteria(step *high.Step, sr *arazzo.StepResult) []CriterionReport {
	if step == nil {
		return nil
	}
	failed := len(step.SuccessCriteria) // none failed
	checked := sr.Success
	var sf *arazzo.StepFailureError
	if !sr.Success && errors.As(sr.Error, &sf) && sf.CriterionIndex >= 0 {
		failed, checked = sf.CriterionIndex, true
	}
	out := make([]CriterionReport, len(step.SuccessCriteria))
	for i, c := range step.SuccessCriteria {
		out[i].Condition = criterionText(c.Context, c.Condition)
		switch {
		case !checked || i > failed:
			out[i].Outcome = NotChecked
		case i == failed:
			out[i].Outcome = Failed
		default:
			out[i].Outcome = Passed
		}
	}
	return out
}
