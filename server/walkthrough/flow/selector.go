package flow

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/antchfx/xmlquery"
	"github.com/antchfx/xpath"
	"github.com/theory/jsonpath"
)

// A Selector Object (Arazzo 1.1.0) picks data out of structured data: a runtime expression
// gives the context, and a JSONPath query, an XPath expression or a JSON pointer selects in
// it. It may stand wherever a value may (a step's output, a parameter's value, a value of a
// payload): an object whose members are exactly context, selector and type.

// Selector is a Selector Object.
type Selector struct {
	Context  string `json:"context"`
	Selector string `json:"selector"`
	// Type is jsonpath, xpath or jsonpointer.
	Type string `json:"type"`
}

// AsSelector reads a value that is a Selector Object; ok is false for any other value.
func AsSelector(v any) (Selector, bool) {
	m, isMap := v.(map[string]any)
	if !isMap || len(m) != 3 {
		return Selector{}, false
	}
	ctx, ok1 := m["context"].(string)
	sel, ok2 := m["selector"].(string)
	typ, ok3 := m["type"].(string)
	if t, isObj := m["type"].(map[string]any); isObj {
		typ, ok3 = t["type"].(string)
	}
	if !ok1 || !ok2 || !ok3 || !IsExpr(ctx) {
		return Selector{}, false
	}
	return Selector{Context: ctx, Selector: sel, Type: typ}, true
}

// Check parses the selector without evaluating it.
func (s Selector) Check() error {
	switch s.Type {
	case "jsonpath":
		_, err := jsonpath.Parse(s.Selector)
		return err
	case "xpath":
		_, err := xpath.Compile(s.Selector)
		return err
	case "jsonpointer":
		if s.Selector != "" && !strings.HasPrefix(s.Selector, "/") {
			return fmt.Errorf("JSON pointer %q starts with /", s.Selector)
		}
		return nil
	}
	return fmt.Errorf("selector type %q: expected jsonpath, xpath or jsonpointer", s.Type)
}

// Select evaluates the selector: the node it selects (a list when a JSONPath query selects
// several); an error when it selects none.
func (c *Context) Select(s Selector) (any, error) {
	val, err := c.String(s.Context)
	if err != nil {
		return nil, err
	}
	switch s.Type {
	case "jsonpointer":
		return Pointer(val, s.Selector)
	case "jsonpath":
		p, err := jsonpath.Parse(s.Selector)
		if err != nil {
			return nil, fmt.Errorf("JSONPath %q does not parse: %w", s.Selector, err)
		}
		if text, ok := val.(string); ok {
			if json.Unmarshal([]byte(text), &val) != nil {
				return nil, fmt.Errorf("selector %s: the context is text, not JSON", s.Selector)
			}
		}
		nodes := p.Select(val)
		switch len(nodes) {
		case 0:
			return nil, fmt.Errorf("selector %s selects nothing in %s", s.Selector, s.Context)
		case 1:
			return nodes[0], nil
		}
		return []any(nodes), nil
	case "xpath":
		text, ok := val.(string)
		if !ok {
			return nil, fmt.Errorf("selector %s: the context is not XML text", s.Selector)
		}
		doc, err := xmlquery.Parse(strings.NewReader(text))
		if err != nil {
			return nil, fmt.Errorf("selector %s: the context is not XML: %w", s.Selector, err)
		}
		expr, err := xpath.Compile(s.Selector)
		if err != nil {
			return nil, fmt.Errorf("XPath %q does not compile: %w", s.Selector, err)
		}
		switch r := expr.Evaluate(xmlquery.CreateXPathNavigator(doc)).(type) {
		case *xpath.NodeIterator:
			if r.MoveNext() {
				return r.Current().Value(), nil
			}
			return nil, fmt.Errorf("selector %s selects nothing in %s", s.Selector, s.Context)
		default:
			return r, nil
		}
	}
	return nil, fmt.Errorf("selector type %q: expected jsonpath, xpath or jsonpointer", s.Type)
}

// Selectors calls f with every Selector Object a value holds.
func Selectors(v any, f func(Selector)) {
	switch t := v.(type) {
	case map[string]any:
		if s, ok := AsSelector(t); ok {
			f(s)
			return
		}
		for _, e := range t {
			Selectors(e, f)
		}
	case []any:
		for _, e := range t {
			Selectors(e, f)
		}
	}
}
