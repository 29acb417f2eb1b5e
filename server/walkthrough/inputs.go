package walkthrough

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"loupe/server/walkthrough/flow"
)

// InputError is a workflow input that is missing, unknown or of the wrong type.
type InputError struct {
	// Walkthrough is the walkthrough's id and Input the input's name.
	Walkthrough, Input string
	// Msg says what is wrong and what to do.
	Msg string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("walkthrough %s: input %s: %s", e.Walkthrough, e.Input, e.Msg)
}

// Inputs lists a workflow's inputs, in name order (JSON Schema properties have no order once
// decoded), required ones first.
func Inputs(wf *flow.Workflow) []Input {
	props, _ := wf.Inputs["properties"].(map[string]any)
	var required []string
	if list, ok := wf.Inputs["required"].([]any); ok {
		for _, r := range list {
			required = append(required, flow.Text(r))
		}
	}
	var out []Input
	for _, name := range sortedKeys(props) {
		p, _ := props[name].(map[string]any)
		in := Input{Name: name, Required: slices.Contains(required, name)}
		in.Type, _ = p["type"].(string)
		in.Description, _ = p["description"].(string)
		if d, ok := p["default"]; ok {
			in.Default = flow.Text(d)
		}
		out = append(out, in)
	}
	slices.SortStableFunc(out, func(a, b Input) int {
		switch {
		case a.Required && !b.Required:
			return -1
		case b.Required && !a.Required:
			return 1
		}
		return 0
	})
	return out
}

// Values checks inputs given as text (`-input name=value`, the runner's fields) and types them
// as the workflow's schema says: numbers, booleans, and JSON for lists and objects. Defaults
// are filled in by the runtime. A missing required input, an unknown name or a value of the
// wrong type is an *InputError.
func (w *Walkthrough) Values(wf *flow.Workflow, given map[string]string) (map[string]any, error) {
	ins := Inputs(wf)
	out := map[string]any{}
	for _, name := range sortedKeys(given) {
		i := slices.IndexFunc(ins, func(in Input) bool { return in.Name == name })
		if i < 0 {
			var names []string
			for _, in := range ins {
				names = append(names, in.Name)
			}
			takes := "no inputs"
			if len(names) > 0 {
				takes = strings.Join(names, ", ")
			}
			return nil, &InputError{w.ID, name, fmt.Sprintf("unknown; workflow %s takes %s", wf.ID, takes)}
		}
		if given[name] == "" {
			continue
		}
		v, err := typed(ins[i].Type, given[name])
		if err != nil {
			return nil, &InputError{w.ID, name, err.Error()}
		}
		out[name] = v
	}
	for _, in := range ins {
		if _, ok := out[in.Name]; !ok && in.Required && in.Default == "" {
			what := in.Description
			if what == "" {
				what = in.Type
			}
			return nil, &InputError{w.ID, in.Name, fmt.Sprintf("required (%s): give it a value", what)}
		}
	}
	return out, nil
}

func typed(typ, v string) (any, error) {
	switch typ {
	case "integer":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", v)
		}
		return float64(n), nil
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
	case "array", "object":
		var out any
		if err := json.Unmarshal([]byte(v), &out); err != nil {
			return nil, fmt.Errorf("%q is not JSON: a list or an object is given as JSON, such as [\"a\",\"b\"] or {\"k\":1}", v)
		}
		return out, nil
	}
	return v, nil
}

// WorkflowByID returns the walkthrough's workflow with the given id (its first when id is
// empty), or an error listing the workflows.
func (w *Walkthrough) WorkflowByID(id string) (*flow.Workflow, error) {
	if id == "" {
		return w.Workflow, nil
	}
	if wf := w.Doc.Workflow(id); wf != nil {
		return wf, nil
	}
	var ids []string
	for _, wf := range w.Doc.Workflows {
		ids = append(ids, wf.ID)
	}
	return nil, fmt.Errorf("walkthrough %s has no workflow %q; its workflows are: %s", w.ID, id, strings.Join(ids, ", "))
}
