package walkthrough

import (
	"fmt"
	"strings"

	"loupe/server/walkthrough/flow"
)

// checkWorkflows finds, before any request is sent, what would fail on the way: a runtime
// expression that does not parse or reaches nothing (an input, a step output or a workflow
// output no one declares), a criterion that does not parse, an action that goes to a step or
// workflow that does not exist, and steps that go round in a circle of unconditional gotos.
func (l *loader) checkWorkflows(doc *flow.Document, r node) {
	for i, wf := range doc.Workflows {
		w := r.key("workflows").items()[i]
		for _, dep := range wf.DependsOn {
			if doc.Workflow(dep) == nil {
				l.p.add(w.key("dependsOn"), "dependsOn %q: the document has no such workflow", dep)
			}
		}
		steps := w.key("steps").items()
		for j, st := range wf.Steps {
			s := steps[j]
			if st.WorkflowID != "" && doc.Workflow(st.WorkflowID) == nil {
				l.p.add(s.key("workflowId"), "step %s: workflowId %q: the document has no such workflow", st.ID, st.WorkflowID)
			}
			sc := scope{doc: doc, wf: wf, self: st.ID}
			for k, p := range st.Parameters {
				l.values(p.Value, paramNode(s, k, p.Name), sc)
			}
			if st.Body != nil {
				l.values(st.Body.Payload, s.key("requestBody").key("payload"), sc)
				for k, rp := range st.Body.Replacements {
					l.values(rp.Value, s.key("requestBody").key("replacements").items()[k].key("value"), sc)
				}
			}
			sc.self = "" // criteria and outputs read the step's own answer
			if st.WorkflowID != "" {
				sc.called = doc.Workflow(st.WorkflowID)
			}
			for k, c := range st.SuccessCriteria {
				l.criterion(c, s.key("successCriteria").items()[k], sc)
			}
			l.outputs(st.Outputs, s.key("outputs"), sc)
			l.actions(st.OnSuccess, s.key("onSuccess"), sc)
			l.actions(st.OnFailure, s.key("onFailure"), sc)
		}
		l.outputs(wf.Outputs, w.key("outputs"), scope{doc: doc, wf: wf})
		l.cycles(wf, w)
	}
}

// paramNode is the node of a step's parameter k, or of the step when the parameter came from
// its workflow.
func paramNode(s node, k int, name string) node {
	items := s.key("parameters").items()
	for _, it := range items {
		if it.key("name").str() == name {
			return it.key("value")
		}
	}
	if k < len(items) {
		return items[k]
	}
	return s
}

// scope is what the expressions at a place may read.
type scope struct {
	doc *flow.Document
	wf  *flow.Workflow
	// self is the step whose request is being built: it cannot read its own outputs.
	self string
	// called is the workflow the step runs, whose outputs $outputs reads.
	called *flow.Workflow
}

func (l *loader) values(v any, at node, sc scope) {
	flow.Selectors(v, func(s flow.Selector) {
		if err := s.Check(); err != nil {
			l.p.add(at, "selector %s: %v", s.Selector, err)
		}
	})
	exprs, errs := flow.Expressions(v)
	for _, err := range errs {
		l.p.add(at, "%v", err)
	}
	for _, e := range exprs {
		if err := sc.reach(e); err != nil {
			l.p.add(at, "%s", err)
		}
	}
}

func (l *loader) criterion(c flow.Criterion, at node, sc scope) {
	if err := c.Check(); err != nil {
		l.p.add(at.key("condition"), "condition %q: %v", c.Condition, err)
		return
	}
	if c.Context != "" {
		l.values(c.Context, at.key("context"), sc)
	}
	if c.Type == "" || c.Type == "simple" {
		if cond, err := flow.ParseCondition(c.Condition); err == nil && c.Context == "" {
			for _, e := range cond.Exprs() {
				if err := sc.reach(e); err != nil {
					l.p.add(at.key("condition"), "%s", err)
				}
			}
		}
		return
	}
	l.values(c.Condition, at.key("condition"), sc)
}

func (l *loader) outputs(outs []flow.Output, at node, sc scope) {
	for _, o := range outs {
		if o.Selector != nil {
			if err := o.Selector.Check(); err != nil {
				l.p.add(at.key(o.Name), "output %s: %v", o.Name, err)
			}
			l.values(o.Selector.Context, at.key(o.Name).key("context"), sc)
			continue
		}
		if !flow.IsExpr(o.Value) {
			l.p.add(at.key(o.Name), "output %s: %q is not a runtime expression", o.Name, o.Value)
			continue
		}
		l.values(o.Value, at.key(o.Name), sc)
	}
}

func (l *loader) actions(actions []flow.Action, at node, sc scope) {
	items := at.items()
	for k, a := range actions {
		an := at
		if k < len(items) {
			an = items[k]
		}
		if a.StepID != "" && sc.wf.StepIndex(a.StepID) < 0 {
			l.p.add(an, "action %s: stepId %q: workflow %s has no such step", a.Name, a.StepID, sc.wf.ID)
		}
		if a.WorkflowID != "" && sc.doc.Workflow(a.WorkflowID) == nil {
			l.p.add(an, "action %s: workflowId %q: the document has no such workflow", a.Name, a.WorkflowID)
		}
		for _, c := range a.Criteria {
			l.criterion(c, an, sc)
		}
	}
}

// reach says why an expression reaches nothing, or nil.
func (sc scope) reach(e flow.Expr) error {
	head := func(name string) string { h, _, _ := strings.Cut(name, "."); return h }
	switch e.Kind {
	case "inputs":
		if !declares(sc.wf.Inputs, e.Name) {
			return fmt.Errorf("%s reaches nothing: workflow %s declares no input %s", e.Raw, sc.wf.ID, head(e.Name))
		}
	case "steps":
		i := sc.wf.StepIndex(e.ID)
		if i < 0 {
			return fmt.Errorf("%s reaches nothing: workflow %s has no step %s", e.Raw, sc.wf.ID, e.ID)
		}
		if e.ID == sc.self {
			return fmt.Errorf("%s: a step's request cannot use the step's own outputs", e.Raw)
		}
		if !hasOutput(sc.wf.Steps[i].Outputs, e.Name) {
			return fmt.Errorf("%s reaches nothing: step %s declares no output %s", e.Raw, e.ID, head(e.Name))
		}
	case "workflows":
		w := sc.doc.Workflow(e.ID)
		switch {
		case w == nil:
			return fmt.Errorf("%s reaches nothing: the document has no workflow %s", e.Raw, e.ID)
		case e.Field == "inputs" && !declares(w.Inputs, e.Name):
			return fmt.Errorf("%s reaches nothing: workflow %s declares no input %s", e.Raw, e.ID, head(e.Name))
		case e.Field == "outputs" && !hasOutput(w.Outputs, e.Name):
			return fmt.Errorf("%s reaches nothing: workflow %s declares no output %s", e.Raw, e.ID, head(e.Name))
		}
	case "outputs":
		if sc.called == nil {
			return fmt.Errorf("%s: $outputs is what a step that runs a workflow reads of it; this is not such a step", e.Raw)
		}
		if !hasOutput(sc.called.Outputs, e.Name) {
			return fmt.Errorf("%s reaches nothing: workflow %s declares no output %s", e.Raw, sc.called.ID, head(e.Name))
		}
	case "sourceDescriptions":
		for _, s := range sc.doc.Sources {
			if s.Name == e.ID {
				return nil
			}
		}
		return fmt.Errorf("%s reaches nothing: there is no source description %s", e.Raw, e.ID)
	case "components":
		if _, ok := sc.doc.Parameters[e.Name]; e.ID != "parameters" || !ok {
			return fmt.Errorf("%s reaches nothing: there is no components.parameters.%s", e.Raw, e.Name)
		}
	}
	return nil
}

// declares reports whether an inputs schema declares the input a name starts with. A schema
// without properties declares none.
func declares(schema map[string]any, name string) bool {
	props, _ := schema["properties"].(map[string]any)
	if _, ok := props[name]; ok {
		return true
	}
	for i := strings.LastIndexByte(name, '.'); i > 0; i = strings.LastIndexByte(name[:i], '.') {
		if _, ok := props[name[:i]]; ok {
			return true
		}
	}
	return false
}

func hasOutput(outs []flow.Output, name string) bool {
	for _, o := range outs {
		if o.Name == name || strings.HasPrefix(name, o.Name+".") {
			return true
		}
	}
	return false
}

// cycles finds steps that go round forever while they succeed: each one's first success
// action is an unconditional goto (or, with none, the next step in order), and the chain comes
// back to a step it passed.
func (l *loader) cycles(wf *flow.Workflow, w node) {
	next := func(i int) int {
		acts := wf.Steps[i].OnSuccess
		if len(acts) == 0 {
			if i+1 < len(wf.Steps) {
				return i + 1
			}
			return -1
		}
		if a := acts[0]; len(a.Criteria) == 0 && a.Type == "goto" && a.StepID != "" {
			return wf.StepIndex(a.StepID)
		}
		return -1 // an end, a goto to a workflow, or a condition: a way out
	}
	reported := map[int]bool{}
	for start := range wf.Steps {
		var chain []int
		for i := start; i >= 0; i = next(i) {
			if k := indexOf(chain, i); k >= 0 {
				loop := chain[k:]
				if !reported[loop[0]] {
					var names []string
					for _, j := range append(loop, i) {
						names = append(names, wf.Steps[j].ID)
						reported[j] = true
					}
					l.p.add(w.key("steps").items()[loop[len(loop)-1]], "steps %s go round forever while they succeed: give one of their gotos criteria, or an end",
						strings.Join(names, " → "))
				}
				break
			}
			chain = append(chain, i)
		}
	}
}

func indexOf(list []int, v int) int {
	for i, e := range list {
		if e == v {
			return i
		}
	}
	return -1
}
