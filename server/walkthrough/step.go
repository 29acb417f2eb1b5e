package walkthrough

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pb33f/libopenapi/arazzo"
	"github.com/pb33f/libopenapi/arazzo/expression"
	high "github.com/pb33f/libopenapi/datamodel/high/arazzo"
	"go.yaml.in/yaml/v4"

	"loupe/app/catalog"
)

// Step serves the browser's runner one step at a time, so that the wasm holds no expression
// evaluator: given the run so far (inputs, earlier steps' outputs), it resolves the step's
// request with libopenapi's expression evaluator; given also the step's answer, it checks the
// success criteria (arazzo.EvaluateCriterion), computes the outputs and picks the next step from
// onSuccess/onFailure as the engine does (first action whose criteria hold; goto, end, or the
// next step in order; a failure without an action stops).
func (w *Walkthrough) Step(req catalog.WalkStepRequest) catalog.WalkStepAnswer {
	step := w.step(req.Step)
	if step == nil {
		return catalog.WalkStepAnswer{Error: fmt.Sprintf("walkthrough %s has no step %q", w.ID, req.Step)}
	}
	inputs, err := w.Values(req.Inputs)
	if err != nil {
		return catalog.WalkStepAnswer{Error: err.Error()}
	}
	ctx := &expression.Context{Inputs: inputs, Steps: map[string]*expression.StepContext{}, Outputs: map[string]any{}}
	for id, outs := range req.Outputs {
		sc := &expression.StepContext{Outputs: map[string]any{}}
		for name, raw := range outs {
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				return catalog.WalkStepAnswer{Error: fmt.Sprintf("output %s of step %s is not JSON", name, id)}
			}
			sc.Outputs[name] = v
		}
		ctx.Steps[id] = sc
	}
	if req.Response == nil {
		return w.request(step, ctx)
	}
	return w.judge(step, ctx, req.Response)
}

// request resolves the step's parameters and body.
func (w *Walkthrough) request(step *high.Step, ctx *expression.Context) catalog.WalkStepAnswer {
	var ans catalog.WalkStepAnswer
	for _, p := range step.Parameters {
		v, from, err := resolve(p.Value, ctx)
		if err != nil {
			return catalog.WalkStepAnswer{Error: fmt.Sprintf("step %s, parameter %s: %v. Run the steps before it first.", step.StepId, p.Name, err)}
		}
		vals, err := paramTexts(p.Name, v)
		if err != nil {
			return catalog.WalkStepAnswer{Error: fmt.Sprintf("step %s, parameter %s: %v", step.StepId, p.Name, err)}
		}
		ans.Params = append(ans.Params, catalog.WalkParam{Name: p.Name, In: p.In, Values: vals, From: from})
	}
	if step.RequestBody != nil {
		v, _, err := resolve(step.RequestBody.Payload, ctx)
		if err != nil {
			return catalog.WalkStepAnswer{Error: fmt.Sprintf("step %s, request body: %v. Run the steps before it first.", step.StepId, err)}
		}
		body, err := json.MarshalIndent(Plain(v), "", "  ")
		if err != nil {
			return catalog.WalkStepAnswer{Error: fmt.Sprintf("step %s, request body: %v", step.StepId, err)}
		}
		ans.Body = string(body)
		if err := carried(step.RequestBody.Payload, "", ctx, &ans.BodyFrom); err != nil {
			return catalog.WalkStepAnswer{Error: fmt.Sprintf("step %s, request body: %v", step.StepId, err)}
		}
	}
	ans.OK = true
	return ans
}

// judge checks the step's answer: criteria, outputs, next step.
func (w *Walkthrough) judge(step *high.Step, ctx *expression.Context, res *catalog.WalkResponse) catalog.WalkStepAnswer {
	ctx.StatusCode = res.Status
	ctx.ResponseHeaders = res.Headers
	if ctx.ResponseHeaders == nil {
		ctx.ResponseHeaders = map[string]string{}
	}
	if res.ContentType != "" {
		ctx.ResponseHeaders["Content-Type"] = res.ContentType
	}
	var body yaml.Node
	if err := body.Encode(decodeBody(res.ContentType, []byte(res.Body))); err != nil {
		return catalog.WalkStepAnswer{Error: fmt.Sprintf("reading the answer: %v", err)}
	}
	ctx.ResponseBody = &body
	ans := catalog.WalkStepAnswer{OK: true}
	failed := -1
	for i, c := range step.SuccessCriteria {
		outcome := string(NotChecked)
		if failed < 0 {
			ok, err := arazzo.EvaluateCriterion(c, ctx)
			switch {
			case err != nil:
				failed, outcome = i, string(Failed)
				ans.Hint = fmt.Sprintf("The criterion %q could not be evaluated (%v): the answer does not have the shape the walkthrough expects.", criterionText(c.Context, c.Condition), err)
			case ok:
				outcome = string(Passed)
			default:
				failed, outcome = i, string(Failed)
			}
		}
		ans.Criteria = append(ans.Criteria, catalog.WalkCriterion{Condition: criterionText(c.Context, c.Condition), Outcome: outcome})
	}
	ans.OK = failed < 0
	if ans.OK && step.Outputs != nil {
		ans.Outputs = map[string]json.RawMessage{}
		for name, o := range step.Outputs.FromOldest() {
			e, _ := o.GetExpression()
			v, _, err := resolveString(e, ctx)
			if err != nil {
				return catalog.WalkStepAnswer{Error: fmt.Sprintf("step %s, output %s: %v", step.StepId, name, err), Criteria: ans.Criteria}
			}
			raw, _ := json.Marshal(Plain(v))
			ans.Outputs[name] = raw
		}
	}
	if !ans.OK && ans.Hint == "" {
		ans.Hint = hint(true, res.Status)
	}
	ans.Next = w.next(step, ctx, ans.OK)
	return ans
}

// next picks the step after this one.
func (w *Walkthrough) next(step *high.Step, ctx *expression.Context, ok bool) string {
	type action struct {
		typ, stepID string
		criteria    []*high.Criterion
	}
	var actions []action
	if ok {
		for _, a := range step.OnSuccess {
			actions = append(actions, action{a.Type, a.StepId, a.Criteria})
		}
	} else {
		for _, a := range step.OnFailure {
			actions = append(actions, action{a.Type, a.StepId, a.Criteria})
		}
	}
	for _, a := range actions {
		holds := true
		for _, c := range a.criteria {
			if r, err := arazzo.EvaluateCriterion(c, ctx); err != nil || !r {
				holds = false
			}
		}
		if !holds {
			continue
		}
		switch a.typ {
		case "end":
			return ""
		case "goto":
			return a.stepID
		case "retry":
			return step.StepId
		}
	}
	if !ok {
		return ""
	}
	for i, s := range w.Workflow.Steps {
		if s == step && i+1 < len(w.Workflow.Steps) {
			return w.Workflow.Steps[i+1].StepId
		}
	}
	return ""
}

// resolve evaluates the runtime expressions in a YAML value as the engine does: a string that
// starts with "$" is an expression, one with "{$…}" embeds some; from is the expression of a
// value that is one.
func resolve(n *yaml.Node, ctx *expression.Context) (v any, from string, err error) {
	if n == nil {
		return nil, "", nil
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.ShortTag() == "!!str" {
			return resolveString(n.Value, ctx)
		}
		var out any
		err := n.Decode(&out)
		return out, "", err
	case yaml.MappingNode:
		out := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, f, err := resolve(n.Content[i+1], ctx)
			if err != nil {
				return nil, "", err
			}
			out[n.Content[i].Value] = v
			if f != "" {
				from = f
			}
		}
		return out, from, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, _, err := resolve(c, ctx)
			if err != nil {
				return nil, "", err
			}
			out = append(out, v)
		}
		return out, "", nil
	}
	var out any
	err = n.Decode(&out)
	return out, "", err
}

func resolveString(s string, ctx *expression.Context) (any, string, error) {
	switch {
	case strings.HasPrefix(s, "$"):
		e, err := expression.ParseWithVersion(s, expression.Arazzo10)
		if err != nil {
			return nil, "", err
		}
		v, err := expression.Evaluate(e, ctx)
		return v, s, err
	case strings.Contains(s, "{$"):
		tokens, err := expression.ParseEmbeddedWithVersion(s, expression.Arazzo10)
		if err != nil {
			return nil, "", err
		}
		var b strings.Builder
		for _, t := range tokens {
			if !t.IsExpression {
				b.WriteString(t.Literal)
				continue
			}
			v, err := expression.Evaluate(t.Expression, ctx)
			if err != nil {
				return nil, "", err
			}
			fmt.Fprint(&b, v)
		}
		return b.String(), s, nil
	}
	return s, "", nil
}
