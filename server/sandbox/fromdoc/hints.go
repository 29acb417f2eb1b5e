package fromdoc

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// HintsExtension is the document extension that overrides the inference, at the document's
// root (resources, stateless) or on an operation (its action):
//
//	x-loupe-sandbox:
//	  resources:
//	    - collection: /pets          # the collection's path
//	      item: /pets/{petId}        # its item's path (optional)
//	      id: petId                  # the item property that holds the id (optional)
//	  stateless: [getPetStats]       # operations answered from the document alone
//	paths:
//	  /pets/{petId}/adopt:
//	    post:
//	      x-loupe-sandbox: {action: update, resource: /pets}   # or {action: none}
//
// The configuration's apis.<slug>.sandbox takes the same keys (operations by operationId
// under operations:), and wins over the document.
const HintsExtension = "x-loupe-sandbox"

// Hints override what Infer decides.
type Hints struct {
	// Resources are collections to keep, replacing any inferred on the same collection path.
	Resources []ResourceHint `json:"resources,omitempty" yaml:"resources"`
	// Stateless names operations (operationId or page name) answered from the document alone.
	Stateless []string `json:"stateless,omitempty" yaml:"stateless"`
	// Operations gives an operation's action, by operationId or page name.
	Operations map[string]OperationHint `json:"operations,omitempty" yaml:"operations"`
}

// ResourceHint names a collection.
type ResourceHint struct {
	// Name names the collection; empty means its path's last segment.
	Name string `json:"name,omitempty" yaml:"name"`
	// Collection is the collection's path template. Required.
	Collection string `json:"collection" yaml:"collection"`
	// Item is its item's path template; empty means none (create and list only).
	Item string `json:"item,omitempty" yaml:"item"`
	// ID is the item property that holds the id; empty means inferred.
	ID string `json:"id,omitempty" yaml:"id"`
}

// OperationHint says what one operation does.
type OperationHint struct {
	// Action is list, create, read, replace, update, delete, or none (stateless).
	Action string `json:"action" yaml:"action"`
	// Resource is the collection's path (or name) the action is on; empty means the one the
	// operation's path belongs to.
	Resource string `json:"resource,omitempty" yaml:"resource"`
}

// actions are the valid OperationHint actions.
var actions = []string{"list", "create", "read", "replace", "update", "delete", "none"}

// ParseHints reads hints from plain values (a YAML or JSON mapping as decoded), as the
// configuration and the document extension hold them.
func ParseHints(v any) (*Hints, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("reading the sandbox hints: %w", err)
	}
	var h Hints
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("reading the sandbox hints (expected resources, stateless and operations): %w", err)
	}
	for i, r := range h.Resources {
		if r.Collection == "" {
			return nil, fmt.Errorf("sandbox hints: resources[%d] has no collection path", i)
		}
	}
	for id, o := range h.Operations {
		if !slices.Contains(actions, o.Action) {
			return nil, fmt.Errorf("sandbox hints: operation %s: action %q; expected one of %s", id, o.Action, strings.Join(actions, ", "))
		}
	}
	return &h, nil
}

// documentHints reads the document's own x-loupe-sandbox extensions.
func documentHints(d *Document) (*Hints, error) {
	h, err := ParseHints(obj(d.root)[HintsExtension])
	if err != nil {
		return nil, fmt.Errorf("the document's %s: %w", HintsExtension, err)
	}
	if h == nil {
		h = &Hints{}
	}
	for _, o := range d.ops {
		ext, ok := o.raw[HintsExtension]
		if !ok {
			continue
		}
		var oh OperationHint
		b, _ := json.Marshal(ext)
		if err := json.Unmarshal(b, &oh); err != nil || !slices.Contains(actions, oh.Action) {
			return nil, fmt.Errorf("%s %s: %s: expected {action: %s, resource: <collection path>}", o.Method, o.Path, HintsExtension, strings.Join(actions, "|"))
		}
		if h.Operations == nil {
			h.Operations = map[string]OperationHint{}
		}
		h.Operations[o.ID] = oh
	}
	return h, nil
}

// with returns h with over's hints on top.
func (h *Hints) with(over *Hints) *Hints {
	out := &Hints{Resources: slices.Clone(h.Resources), Stateless: slices.Clone(h.Stateless), Operations: map[string]OperationHint{}}
	for k, v := range h.Operations {
		out.Operations[k] = v
	}
	if over == nil {
		return out
	}
	for _, r := range over.Resources {
		out.Resources = slices.DeleteFunc(out.Resources, func(x ResourceHint) bool { return x.Collection == r.Collection })
		out.Resources = append(out.Resources, r)
	}
	out.Stateless = append(out.Stateless, over.Stateless...)
	for k, v := range over.Operations {
		out.Operations[k] = v
	}
	return out
}

// hintedResource makes the resource a hint names, checking its paths.
func (d *Document) hintedResource(h ResourceHint, byPath map[string]map[string]*operation) (*Resource, error) {
	if byPath[h.Collection] == nil && byPath[h.Item] == nil {
		return nil, fmt.Errorf("sandbox hints: resource %s: the document has no path %s", h.Collection, h.Collection)
	}
	res := &Resource{Name: h.Name, Collection: h.Collection, Item: h.Item, ID: h.ID}
	if res.Name == "" {
		res.Name = lastLiteral(h.Collection)
	}
	if h.Item != "" {
		if byPath[h.Item] == nil {
			return nil, fmt.Errorf("sandbox hints: resource %s: the document has no path %s", h.Collection, h.Item)
		}
		param, _, ok := itemPath(h.Item)
		if !ok {
			return nil, fmt.Errorf("sandbox hints: resource %s: item %s does not end in a path parameter", h.Collection, h.Item)
		}
		res.Param = param
	}
	return res, nil
}

// applyOperationHints sets the actions the hints give operations, and drops the stateless ones.
func (m *Model) applyOperationHints(d *Document, h *Hints) error {
	find := func(id string) *operation {
		for _, o := range d.ops {
			if o.ID == id || (o.model.OperationId != "" && o.model.OperationId == id) {
				return o
			}
		}
		return nil
	}
	for _, id := range h.Stateless {
		o := find(id)
		if o == nil {
			return fmt.Errorf("sandbox hints: stateless names %q, which is not an operation of the document", id)
		}
		m.drop(o)
	}
	for _, id := range slices.Sorted(maps.Keys(h.Operations)) {
		oh := h.Operations[id]
		o := find(id)
		if o == nil {
			return fmt.Errorf("sandbox hints: operations names %q, which is not an operation of the document", id)
		}
		m.drop(o)
		if oh.Action == "none" {
			continue
		}
		var res *Resource
		for _, r := range m.Resources {
			if r.Collection == oh.Resource || r.Name == oh.Resource || (oh.Resource == "" && (r.Collection == o.Path || r.Item == o.Path)) {
				res = r
				break
			}
		}
		if res == nil {
			return fmt.Errorf("sandbox hints: operation %s: no collection %q is kept (see resources)", id, oh.Resource)
		}
		m.actions[o] = &action{kind: oh.Action, res: res, op: o}
		res.Operations[oh.Action] = o.ID
	}
	return nil
}

// drop makes an operation stateless.
func (m *Model) drop(o *operation) {
	if a := m.actions[o]; a != nil {
		delete(a.res.Operations, a.kind)
		delete(m.actions, o)
	}
}
