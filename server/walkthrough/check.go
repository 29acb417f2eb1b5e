package walkthrough

import (
	"fmt"
	"strings"

	"github.com/pb33f/libopenapi/arazzo/expression"
	high "github.com/pb33f/libopenapi/datamodel/high/arazzo"
	"go.yaml.in/yaml/v4"

	"loupe/app/catalog"
)

// problem is one thing wrong in a document, at a line.
type problem struct {
	line int
	msg  string
}

// check finds what libopenapi's structural validation cannot know: that each step calls an
// operation of the walkthrough's API with parameters it documents, and that every runtime
// expression parses (Arazzo 1.0 grammar) and names only the inputs and earlier steps' outputs
// the document declares.
func check(w *Walkthrough) []problem {
	var out []problem
	add := func(line int, format string, args ...any) {
		out = append(out, problem{line, fmt.Sprintf(format, args...)})
	}
	syms := &expression.LocalSymbols{
		Inputs:             expression.SymbolSet{},
		Steps:              map[string]expression.StepSymbols{},
		SourceDescriptions: expression.SymbolSet{w.Source: {}},
	}
	for _, in := range w.Inputs {
		syms.Inputs[in.Name] = struct{}{}
	}
	for _, step := range w.Workflow.Steps {
		at := fmt.Sprintf("step %q", step.StepId)
		stepLine := lowLine(step.GoLow().RootNode)
		if step.OperationId == "" {
			add(stepLine, "%s: a walkthrough step calls an operation by operationId", at)
			continue
		}
		op := w.API.Operation(step.OperationId)
		if op == nil {
			add(lowLine(step.GoLow().OperationId.ValueNode), "%s: operationId %q is not an operation of %s (content/openapi/%s.yaml)",
				at, step.OperationId, w.API.Title, w.API.Slug)
			continue
		}
		expr := func(n *yaml.Node, where string) {
			walkStrings(n, func(s string, line int) {
				if err := checkExpression(s, syms); err != nil {
					add(line, "%s: %s: %v", at, where, err)
				}
			})
		}
		for j, p := range step.Parameters {
			where := fmt.Sprintf("parameters[%d] %q", j, p.Name)
			if p.Reference != "" {
				add(lowLine(p.GoLow().RootNode), "%s: %s: reusable parameters are not supported in walkthroughs", at, where)
				continue
			}
			if findParam(op, p.Name, p.In) == nil {
				add(lowLine(p.GoLow().RootNode), "%s: %s in %q: %s has no such parameter", at, where, p.In, op.ID)
			}
			expr(p.Value, where)
		}
		if step.RequestBody != nil {
			if op.Body == nil {
				add(lowLine(step.RequestBody.GoLow().RootNode), "%s: requestBody: %s takes no body", at, op.ID)
			}
			expr(step.RequestBody.Payload, "requestBody")
		}
		// The step's criteria and outputs may read its own response: the symbols of earlier
		// steps are what they may name.
		for j, c := range step.SuccessCriteria {
			where := fmt.Sprintf("successCriteria[%d]", j)
			line := lowLine(c.GoLow().RootNode)
			if c.Context != "" {
				if err := checkExpression(c.Context, syms); err != nil {
					add(line, "%s: %s.context: %v", at, where, err)
				}
				continue // regex and JSONPath conditions are not runtime expressions
			}
			for _, operand := range conditionOperands(c.Condition) {
				if err := checkExpression(operand, syms); err != nil {
					add(line, "%s: %s.condition %q: %v", at, where, c.Condition, err)
				}
			}
		}
		outputs := expression.SymbolSet{}
		if step.Outputs != nil {
			for name, v := range step.Outputs.FromOldest() {
				outputs[name] = struct{}{}
				if !v.IsExpression() {
					add(stepLine, "%s: output %q: a walkthrough output is a runtime expression", at, name)
					continue
				}
				e, _ := v.GetExpression()
				if err := checkExpression(e, syms); err != nil {
					add(outputLine(step, name, stepLine), "%s: output %q: %v", at, name, err)
				}
			}
		}
		checkActions(step, add)
		syms.Steps[step.StepId] = expression.StepSymbols{Outputs: outputs}
	}
	return out
}

// checkActions reports onSuccess/onFailure criteria the grammar refuses; libopenapi's
// validation has checked their targets.
func checkActions(step *high.Step, add func(int, string, ...any)) {
	for _, a := range step.OnFailure {
		for _, c := range a.Criteria {
			for _, operand := range conditionOperands(c.Condition) {
				if _, err := expression.ParseWithVersion(operand, expression.Arazzo10); err != nil {
					add(lowLine(c.GoLow().RootNode), "step %q: onFailure %q: %v", step.StepId, a.Name, err)
				}
			}
		}
	}
	for _, a := range step.OnSuccess {
		for _, c := range a.Criteria {
			for _, operand := range conditionOperands(c.Condition) {
				if _, err := expression.ParseWithVersion(operand, expression.Arazzo10); err != nil {
					add(lowLine(c.GoLow().RootNode), "step %q: onSuccess %q: %v", step.StepId, a.Name, err)
				}
			}
		}
	}
}

// checkExpression checks a value that is, or embeds, runtime expressions; a plain literal passes.
func checkExpression(s string, syms *expression.LocalSymbols) error {
	var exprs []expression.Expression
	switch {
	case strings.HasPrefix(s, "$"):
		e, err := expression.ParseWithVersion(s, expression.Arazzo10)
		if err != nil {
			return fmt.Errorf("runtime expression %q does not parse: %w", s, err)
		}
		exprs = append(exprs, e)
	case strings.Contains(s, "{$"):
		tokens, err := expression.ParseEmbeddedWithVersion(s, expression.Arazzo10)
		if err != nil {
			return fmt.Errorf("embedded runtime expression in %q does not parse: %w", s, err)
		}
		for _, t := range tokens {
			if t.IsExpression {
				exprs = append(exprs, t.Expression)
			}
		}
	}
	for _, e := range exprs {
		if err := expression.ResolveLocal(e, syms); err != nil {
			return fmt.Errorf("%w (a step may use the workflow's inputs and the outputs of the steps before it)", err)
		}
	}
	return nil
}

// conditionOperands returns the runtime expressions of a simple condition, as libopenapi's
// criterion evaluation splits it.
func conditionOperands(cond string) []string {
	cond = strings.TrimSpace(cond)
	left, _, right, found := expression.SplitSimpleCondition(cond)
	if !found {
		left, right = cond, ""
	}
	var out []string
	for _, o := range []string{left, right} {
		if strings.HasPrefix(o, "$") {
			out = append(out, o)
		}
	}
	return out
}

// walkStrings calls f with every string scalar of a YAML value and its line.
func walkStrings(n *yaml.Node, f func(s string, line int)) {
	if n == nil {
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.ShortTag() == "!!str" {
			f(n.Value, n.Line)
		}
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			walkStrings(n.Content[i], f)
		}
	default:
		for _, c := range n.Content {
			walkStrings(c, f)
		}
	}
}

// outputLine finds the line of a step output's value.
func outputLine(step *high.Step, name string, fallback int) int {
	outs := step.GoLow().Outputs.ValueNode
	if outs == nil {
		return fallback
	}
	for i := 0; i+1 < len(outs.Content); i += 2 {
		if outs.Content[i].Value == name {
			return outs.Content[i+1].Line
		}
	}
	return fallback
}

// findParam returns op's parameter with the given name and location, or nil.
func findParam(op *catalog.Operation, name, in string) *catalog.Parameter {
	for i := range op.Parameters {
		if p := &op.Parameters[i]; p.Name == name && (in == "" || p.In == in) {
			return p
		}
	}
	return nil
}
