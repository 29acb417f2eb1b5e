package flow

import (
	"fmt"
	"strconv"
	"strings"
)

// act picks and applies the action after a step: the first of its success (or failure)
// actions whose criteria all hold, the step's own before its workflow's. A retry whose limit is
// spent is passed over, so that the actions after it apply (Arazzo 1.0.1 § Failure Action
// Object: the retryLimit is exhausted before subsequent failure actions).
func (r *Run) act(step *Step, ok bool, ctx *Context, why string) Taken {
	f := r.top()
	if f.Detour > 0 { // a retry ran this step first: back to the step it retries
		f.Step, f.Detour = f.Detour-1, 0
		return Taken{Kind: "retry", Target: r.doc.Workflow(f.Workflow).Steps[f.Step].ID}
	}
	actions := step.OnFailure
	if ok {
		actions = step.OnSuccess
		delete(f.Retries, step.ID)
	}
	for _, a := range actions {
		if !r.holds(a.Criteria, ctx) {
			continue
		}
		switch a.Type {
		case "end":
			if ok {
				r.complete(true, "")
			} else {
				r.complete(false, fmt.Sprintf("step %s failed and its failure action %s ended the workflow", step.ID, a.Name))
			}
			return Taken{Kind: "end", Name: a.Name}
		case "goto":
			if a.WorkflowID != "" {
				inputs, err := paramInputs(ctx, a.Parameters)
				if err != nil {
					r.complete(false, fmt.Sprintf("action %s: %v", a.Name, err))
					return Taken{Kind: "fail", Name: a.Name}
				}
				r.push(a.WorkflowID, inputs, "goto")
				return Taken{Kind: "goto", Name: a.Name, Target: a.WorkflowID}
			}
			f.Step = r.doc.Workflow(f.Workflow).StepIndex(a.StepID)
			return Taken{Kind: "goto", Name: a.Name, Target: a.StepID}
		case "retry":
			limit := 1
			if a.RetryLimit != nil {
				limit = *a.RetryLimit
			}
			if f.Retries[step.ID] >= limit {
				continue
			}
			f.Retries[step.ID]++
			t := Taken{Kind: "retry", Name: a.Name, Retry: f.Retries[step.ID], Limit: limit, After: retryAfter(a.RetryAfter, ctx)}
			r.st.Wait = t.After
			switch {
			case a.StepID != "":
				f.Detour = f.Step + 1
				f.Step = r.doc.Workflow(f.Workflow).StepIndex(a.StepID)
				t.Target = a.StepID
			case a.WorkflowID != "":
				inputs, err := paramInputs(ctx, a.Parameters)
				if err != nil {
					r.complete(false, fmt.Sprintf("action %s: %v", a.Name, err))
					return Taken{Kind: "fail", Name: a.Name}
				}
				r.push(a.WorkflowID, inputs, "retry")
				t.Target = a.WorkflowID
			}
			return t
		}
	}
	if ok {
		f.Step++
		return Taken{Kind: "next"}
	}
	if why == "" {
		why = "a success criterion failed"
	}
	r.complete(false, fmt.Sprintf("step %s failed: %s", step.ID, why))
	return Taken{Kind: "fail"}
}

// holds reports whether every criterion of an action holds; one that cannot be evaluated
// does not.
func (r *Run) holds(criteria []Criterion, ctx *Context) bool {
	for _, c := range criteria {
		if c.Evaluate(ctx).Outcome != Passed {
			return false
		}
	}
	return true
}

// retryAfter is the wait before a retry: the answer's Retry-After header, in seconds, when it
// has one (the specification says it overrules retryAfter), else retryAfter.
func retryAfter(after float64, ctx *Context) float64 {
	if ex := ctx.Exchange; ex != nil {
		for k, vs := range ex.Response.Header {
			if strings.EqualFold(k, "Retry-After") && len(vs) > 0 {
				if s, err := strconv.ParseFloat(strings.TrimSpace(vs[0]), 64); err == nil && s >= 0 {
					return s
				}
			}
		}
	}
	return after
}

// complete ends the top workflow (its outputs computed when it succeeded) and returns to its
// caller: the step that ran it is judged, a goto's caller ends with it, a retry's caller runs
// its step again.
func (r *Run) complete(ok bool, why string) {
	st := r.st
	f := *r.top()
	wf := r.doc.Workflow(f.Workflow)
	outs := map[string]any{}
	if ok {
		ctx := r.context(&f, f.Last)
		for _, o := range wf.Outputs {
			v, err := o.Eval(ctx)
			if err != nil {
				ok, why = false, fmt.Sprintf("workflow %s, output %s: %v", wf.ID, o.Name, err)
				break
			}
			outs[o.Name] = v
		}
	}
	st.Workflows[wf.ID] = &WorkflowResult{OK: ok, Inputs: f.Inputs, Outputs: outs, Error: why}
	st.Stack = st.Stack[:len(st.Stack)-1]
	if len(st.Stack) == 0 {
		if !ok {
			r.finish(false, why)
			return
		}
		if wf.ID == st.Target {
			st.Outputs = outs
		}
		return
	}
	parent := r.top()
	if f.Last != nil {
		parent.Last = f.Last
	}
	switch f.Return {
	case "step":
		var cause error
		if !ok {
			cause = fmt.Errorf("workflow %s failed: %s", wf.ID, why)
		}
		pwf := r.doc.Workflow(parent.Workflow)
		r.judge(pwf.Steps[parent.Step], f.Last, outs, cause)
	case "goto":
		r.complete(ok, why)
	}
	// "retry": the caller's step runs again (its index is unchanged)
}

// call resolves a step's request.
func (r *Run) call(f *Frame, step *Step, ctx *Context) (*Call, error) {
	c := &Call{Workflow: f.Workflow, Step: step.ID, Depth: len(r.st.Stack) - 1, Outer: r.outer(), Operation: *step.Operation,
		Attempt: f.Retries[step.ID] + 1, After: r.st.Wait}
	r.st.Wait = 0
	for _, p := range step.Parameters {
		v, err := ctx.Resolve(p.Value)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %w", p.Name, err)
		}
		pv := ParamValue{Name: p.Name, In: p.In, Value: v}
		if s, ok := p.Value.(string); ok && (IsExpr(s) || strings.Contains(s, "{$")) {
			pv.From = s
		}
		c.Params = append(c.Params, pv)
	}
	if step.Body != nil {
		v, err := ctx.Resolve(step.Body.Payload)
		if err != nil {
			return nil, fmt.Errorf("request body: %w", err)
		}
		for _, rep := range step.Body.Replacements {
			rv, err := ctx.Resolve(rep.Value)
			if err != nil {
				return nil, fmt.Errorf("request body, replacement %s: %w", rep.Target, err)
			}
			if v, err = Replace(v, rep.Target, rv); err != nil {
				return nil, fmt.Errorf("request body, replacement %s: %w", rep.Target, err)
			}
		}
		c.Body = &BodyValue{ContentType: step.Body.ContentType, Value: v}
		carried(step.Body.Payload, "", &c.Body.From)
	}
	return c, nil
}

// carried lists the values of a payload written as runtime expressions.
func carried(v any, ptr string, out *[]Carried) {
	switch t := v.(type) {
	case string:
		if IsExpr(t) || strings.Contains(t, "{$") {
			*out = append(*out, Carried{Pointer: ptr, From: t})
		}
	case map[string]any:
		for k, e := range t {
			carried(e, ptr+"/"+strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"), out)
		}
	case []any:
		for i, e := range t {
			carried(e, ptr+"/"+strconv.Itoa(i), out)
		}
	}
}

// paramInputs turns a step's (or an action's) parameters into a called workflow's inputs.
func paramInputs(ctx *Context, params []Param) (map[string]any, error) {
	inputs := map[string]any{}
	for _, p := range params {
		v, err := ctx.Resolve(p.Value)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %w", p.Name, err)
		}
		inputs[p.Name] = v
	}
	return inputs, nil
}

// exchange is a call and its answer, as expressions read them.
func exchange(c *Call, resp *Response) *Exchange {
	ex := &Exchange{URL: resp.URL, Method: resp.Method, Status: resp.Status,
		Request:  Message{Header: map[string][]string{}, Query: map[string]string{}, Path: map[string]string{}},
		Response: Message{Header: resp.Header, Body: resp.Body}}
	if ex.Method == "" {
		ex.Method = c.Operation.Method
	}
	for _, p := range c.Params {
		switch p.In {
		case "header":
			ex.Request.Header[p.Name] = []string{Text(p.Value)}
		case "query":
			ex.Request.Query[p.Name] = Text(p.Value)
		case "path":
			ex.Request.Path[p.Name] = Text(p.Value)
		}
	}
	if c.Body != nil {
		ex.Request.Body = c.Body.Value
	}
	return ex
}

// WithDefaults returns the inputs given, with the defaults of the schema's properties for
// those not given.
func WithDefaults(schema map[string]any, given map[string]any) map[string]any {
	out := map[string]any{}
	if props, ok := schema["properties"].(map[string]any); ok {
		for name, p := range props {
			if ps, ok := p.(map[string]any); ok {
				if d, ok := ps["default"]; ok {
					out[name] = d
				}
			}
		}
	}
	for k, v := range given {
		out[k] = v
	}
	return out
}
