package walkthrough

import (
	"strings"

	"loupe/server/walkthrough/flow"
)

// compiler turns an Arazzo document's YAML into a flow.Document: references to components
// resolved, the workflow's parameters and actions folded into each step's, and every field
// the specification requires checked, each problem at its place.
type compiler struct {
	p     *problems
	comps node
	// ops records each operation step's operationId or operationPath, for binding.
	ops map[*flow.Step]node
}

func (c *compiler) document(r node) *flow.Document {
	doc := &flow.Document{Version: r.key("arazzo").str(), Parameters: map[string]flow.Param{}}
	if v := doc.Version; !strings.HasPrefix(v, "1.0.") && !strings.HasPrefix(v, "1.1.") {
		c.p.add(r.key("arazzo"), "arazzo %q: expected an Arazzo 1.0 or 1.1 version such as 1.0.1", v)
	}
	if r.key("info").key("title").str() == "" {
		c.p.add(r.key("info"), "info.title is required")
	}
	c.comps = r.key("components")
	names, vals := c.comps.key("parameters").members()
	for i, name := range names {
		doc.Parameters[name] = c.param(vals[i], false)
	}
	seen := map[string]bool{}
	for _, s := range r.key("sourceDescriptions").items() {
		src := flow.Source{Name: s.key("name").str(), URL: s.key("url").str(), Type: s.key("type").str()}
		switch {
		case src.Name == "" || src.URL == "":
			c.p.add(s, "a source description needs a name and a url")
		case seen[src.Name]:
			c.p.add(s.key("name"), "source description %q is named twice", src.Name)
		}
		seen[src.Name] = true
		doc.Sources = append(doc.Sources, src)
	}
	if len(doc.Sources) == 0 {
		c.p.add(r.key("sourceDescriptions"), "sourceDescriptions must list at least one source description")
	}
	seen = map[string]bool{}
	for _, w := range r.key("workflows").items() {
		wf := c.workflow(w)
		if seen[wf.ID] {
			c.p.add(w.key("workflowId"), "workflowId %q is used twice", wf.ID)
		}
		seen[wf.ID] = true
		doc.Workflows = append(doc.Workflows, wf)
	}
	if len(doc.Workflows) == 0 {
		c.p.add(r.key("workflows"), "workflows must list at least one workflow")
	}
	return doc
}

func (c *compiler) workflow(w node) *flow.Workflow {
	wf := &flow.Workflow{ID: w.key("workflowId").str(), Summary: w.key("summary").str(), Description: w.key("description").str()}
	if wf.ID == "" {
		c.p.add(w, "a workflow needs a workflowId")
	}
	if in := w.key("inputs"); in.present() {
		v, err := c.schema(in, 0)
		if m, ok := v.(map[string]any); ok && err == nil {
			wf.Inputs = m
		} else if err != nil {
			c.p.add(in, "inputs: %v", err)
		}
	}
	for _, d := range w.key("dependsOn").items() {
		wf.DependsOn = append(wf.DependsOn, d.str())
	}
	var params []flow.Param
	for _, p := range w.key("parameters").items() {
		params = append(params, c.param(p, true))
	}
	success := c.actions(w.key("successActions"), "successActions")
	failure := c.actions(w.key("failureActions"), "failureActions")
	seen := map[string]bool{}
	for _, s := range w.key("steps").items() {
		st := c.step(s, params, success, failure)
		if seen[st.ID] {
			c.p.add(s.key("stepId"), "stepId %q is used twice in workflow %s", st.ID, wf.ID)
		}
		seen[st.ID] = true
		wf.Steps = append(wf.Steps, st)
	}
	if len(wf.Steps) == 0 {
		c.p.add(w.key("steps"), "workflow %s has no steps", wf.ID)
	}
	wf.Outputs = c.outputs(w.key("outputs"))
	return wf
}

func (c *compiler) step(s node, wfParams []flow.Param, wfSuccess, wfFailure []flow.Action) *flow.Step {
	st := &flow.Step{ID: s.key("stepId").str(), Description: s.key("description").str(), WorkflowID: s.key("workflowId").str()}
	if st.ID == "" {
		c.p.add(s, "a step needs a stepId")
	}
	n := 0
	for _, k := range []string{"operationId", "operationPath", "workflowId"} {
		if s.key(k).present() {
			n++
			if k != "workflowId" {
				st.Operation = &flow.Operation{}
				c.ops[st] = s.key(k)
			}
		}
	}
	if n != 1 {
		c.p.add(s, "step %s: give exactly one of operationId, operationPath and workflowId", st.ID)
	}
	var own []flow.Param
	for _, p := range s.key("parameters").items() {
		own = append(own, c.param(p, st.WorkflowID == ""))
	}
	st.Parameters = mergeParams(wfParams, own)
	if b := s.key("requestBody"); b.present() {
		st.Body = &flow.Body{ContentType: b.key("contentType").str()}
		st.Body.Payload, _ = b.key("payload").value()
		for _, rp := range b.key("replacements").items() {
			v, _ := rp.key("value").value()
			st.Body.Replacements = append(st.Body.Replacements, flow.Replacement{Target: rp.key("target").str(), Value: v})
		}
	}
	for _, cr := range s.key("successCriteria").items() {
		st.SuccessCriteria = append(st.SuccessCriteria, c.criterion(cr))
	}
	st.OnSuccess = mergeActions(c.actions(s.key("onSuccess"), "successActions"), wfSuccess)
	st.OnFailure = mergeActions(c.actions(s.key("onFailure"), "failureActions"), wfFailure)
	st.Outputs = c.outputs(s.key("outputs"))
	names, vals := s.members()
	for i, name := range names {
		if strings.HasPrefix(name, "x-") {
			if st.Extensions == nil {
				st.Extensions = map[string]any{}
			}
			st.Extensions[name], _ = vals[i].value()
		}
	}
	return st
}

// param reads a parameter or a reusable object that references one (its value overriding the
// component's); needIn says the parameter goes to an operation, so it needs its location.
func (c *compiler) param(p node, needIn bool) flow.Param {
	if ref := p.key("reference"); ref.present() {
		name, ok := strings.CutPrefix(ref.str(), "$components.parameters.")
		comp := c.comps.key("parameters").key(name)
		if !ok || !comp.present() {
			c.p.add(ref, "reference %q: expected $components.parameters.<name> of a parameter under components.parameters", ref.str())
			return flow.Param{}
		}
		out := c.param(comp, needIn)
		if v := p.key("value"); v.present() {
			out.Value, _ = v.value()
		}
		return out
	}
	out := flow.Param{Name: p.key("name").str(), In: p.key("in").str()}
	out.Value, _ = p.key("value").value()
	switch {
	case out.Name == "":
		c.p.add(p, "a parameter needs a name")
	case !p.key("value").present():
		c.p.add(p, "parameter %s needs a value", out.Name)
	case needIn && out.In == "":
		c.p.add(p, "parameter %s needs in (path, query, header or cookie): it goes to an operation", out.Name)
	case out.In != "" && !strings.Contains(" path query querystring header cookie ", " "+out.In+" "):
		c.p.add(p.key("in"), "parameter %s: in %q: expected path, query, querystring, header or cookie", out.Name, out.In)
	}
	return out
}

func (c *compiler) actions(list node, kind string) []flow.Action {
	var out []flow.Action
	for _, a := range list.items() {
		if ref := a.key("reference"); ref.present() {
			name, ok := strings.CutPrefix(ref.str(), "$components."+kind+".")
			comp := c.comps.key(kind).key(name)
			if !ok || !comp.present() {
				c.p.add(ref, "reference %q: expected $components.%s.<name> of an action under components.%s", ref.str(), kind, kind)
				continue
			}
			a = comp
		}
		act := flow.Action{Name: a.key("name").str(), Type: a.key("type").str(), StepID: a.key("stepId").str(), WorkflowID: a.key("workflowId").str()}
		allowed := " end goto "
		if kind == "failureActions" {
			allowed = " end goto retry "
		}
		switch {
		case act.Name == "":
			c.p.add(a, "an action needs a name")
		case !strings.Contains(allowed, " "+act.Type+" "):
			c.p.add(a.key("type"), "action %s: type %q: expected one of%s", act.Name, act.Type, strings.TrimRight(allowed, " "))
		case act.StepID != "" && act.WorkflowID != "":
			c.p.add(a, "action %s: give stepId or workflowId, not both", act.Name)
		case act.Type == "goto" && act.StepID == "" && act.WorkflowID == "":
			c.p.add(a, "action %s: a goto needs a stepId or a workflowId", act.Name)
		}
		if v, err := a.key("retryAfter").value(); err == nil && v != nil {
			act.RetryAfter, _ = v.(float64)
		}
		if v, err := a.key("retryLimit").value(); err == nil && v != nil {
			if f, ok := v.(float64); ok {
				n := int(f)
				act.RetryLimit = &n
			}
		}
		for _, cr := range a.key("criteria").items() {
			act.Criteria = append(act.Criteria, c.criterion(cr))
		}
		for _, p := range a.key("parameters").items() {
			act.Parameters = append(act.Parameters, c.param(p, false))
		}
		out = append(out, act)
	}
	return out
}

func (c *compiler) criterion(cr node) flow.Criterion {
	out := flow.Criterion{Context: cr.key("context").str(), Condition: cr.key("condition").str(), Type: cr.key("type").str()}
	if t := cr.key("type"); t.present() && out.Type == "" {
		out.Type, out.Version = t.key("type").str(), t.key("version").str()
	}
	if out.Condition == "" {
		c.p.add(cr, "a criterion needs a condition")
	}
	return out
}

func (c *compiler) outputs(o node) []flow.Output {
	var out []flow.Output
	names, vals := o.members()
	for i, name := range names {
		o := flow.Output{Name: name, Value: vals[i].str()}
		if v, err := vals[i].value(); err == nil {
			if sel, ok := flow.AsSelector(v); ok {
				o.Selector = &sel
			}
		}
		out = append(out, o)
	}
	return out
}

// schema decodes a JSON Schema, its $refs to #/components/inputs/<name> replaced by the
// components they name.
func (c *compiler) schema(n node, depth int) (any, error) {
	v, err := n.value()
	if err != nil || depth > 32 {
		return v, err
	}
	return c.inline(v, depth)
}

func (c *compiler) inline(v any, depth int) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		if ref, ok := t["$ref"].(string); ok {
			name, found := strings.CutPrefix(ref, "#/components/inputs/")
			comp := c.comps.key("inputs").key(name)
			if !found || !comp.present() {
				c.p.add(c.comps.key("inputs"), "$ref %q: expected #/components/inputs/<name> of a schema under components.inputs", ref)
				return t, nil
			}
			return c.schema(comp, depth+1)
		}
		for k, e := range t {
			r, err := c.inline(e, depth)
			if err != nil {
				return nil, err
			}
			t[k] = r
		}
	case []any:
		for i, e := range t {
			r, err := c.inline(e, depth)
			if err != nil {
				return nil, err
			}
			t[i] = r
		}
	}
	return v, nil
}

// mergeParams is the workflow's parameters with the step's: a step's parameter overrides the
// workflow's of the same name and location.
func mergeParams(wf, step []flow.Param) []flow.Param {
	var out []flow.Param
	for _, w := range wf {
		overridden := false
		for _, s := range step {
			overridden = overridden || (s.Name == w.Name && s.In == w.In)
		}
		if !overridden {
			out = append(out, w)
		}
	}
	return append(out, step...)
}

// mergeActions is the step's actions, then the workflow's that the step does not override by
// name.
func mergeActions(step, wf []flow.Action) []flow.Action {
	out := append([]flow.Action(nil), step...)
	for _, w := range wf {
		overridden := false
		for _, s := range step {
			overridden = overridden || s.Name == w.Name
		}
		if !overridden {
			out = append(out, w)
		}
	}
	return out
}
