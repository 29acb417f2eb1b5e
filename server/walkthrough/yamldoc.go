package walkthrough

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// node is a place in a document: its YAML node and its JSON pointer, so that every problem
// names both its line and where it is ("/workflows/0/steps/1/operationId").
type node struct {
	n   *yaml.Node
	ptr string
}

// root returns the document's top node.
func root(doc *yaml.Node) node {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	return node{n: n}
}

// key returns the value of a mapping's member, or a node with a nil n.
func (x node) key(name string) node {
	out := node{ptr: x.ptr + "/" + strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")}
	if x.n == nil || x.n.Kind != yaml.MappingNode {
		return out
	}
	for i := 0; i+1 < len(x.n.Content); i += 2 {
		if x.n.Content[i].Value == name {
			out.n = x.n.Content[i+1]
		}
	}
	return out
}

// items returns a sequence's items.
func (x node) items() []node {
	if x.n == nil || x.n.Kind != yaml.SequenceNode {
		return nil
	}
	out := make([]node, len(x.n.Content))
	for i, c := range x.n.Content {
		out[i] = node{n: c, ptr: x.ptr + "/" + strconv.Itoa(i)}
	}
	return out
}

// members returns a mapping's member names and values, in document order.
func (x node) members() ([]string, []node) {
	if x.n == nil || x.n.Kind != yaml.MappingNode {
		return nil, nil
	}
	var names []string
	var vals []node
	for i := 0; i+1 < len(x.n.Content); i += 2 {
		names = append(names, x.n.Content[i].Value)
		vals = append(vals, x.key(x.n.Content[i].Value))
	}
	return names, vals
}

// str returns a scalar's text, "" when absent.
func (x node) str() string {
	if x.n == nil || x.n.Kind != yaml.ScalarNode {
		return ""
	}
	return x.n.Value
}

// present reports whether the member exists.
func (x node) present() bool { return x.n != nil }

// line is the node's line, 0 when it is absent.
func (x node) line() int {
	if x.n == nil {
		return 0
	}
	return x.n.Line
}

// value decodes the node into a JSON value: maps with string keys, lists, float64 numbers.
func (x node) value() (any, error) {
	if x.n == nil {
		return nil, nil
	}
	var v any
	if err := x.n.Decode(&v); err != nil {
		return nil, err
	}
	return jsonish(v), nil
}

// jsonish turns what YAML decoded into what encoding/json would have: float64 numbers and
// maps with string keys.
func jsonish(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = jsonish(e)
		}
		return t
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[fmt.Sprint(k)] = jsonish(e)
		}
		return out
	case []any:
		for i, e := range t {
			t[i] = jsonish(e)
		}
		return t
	case int:
		return float64(t)
	case int64:
		return float64(t)
	case uint64:
		return float64(t)
	}
	return v
}

// problems collects what is wrong with a document, each at its place.
type problems struct {
	list []problem
}

type problem struct {
	at  node
	msg string
}

func (p *problems) add(at node, format string, args ...any) {
	p.list = append(p.list, problem{at, fmt.Sprintf(format, args...)})
}
