package fromdoc

import (
	"fmt"
	"maps"
	"slices"
	"sort"
)

// A schema is read as plain JSON values (raw.go). Before a value is made for one, its $ref and
// allOf are flattened into one mapping (flatten): the constraints of every part, combined so
// that what satisfies the result satisfies each part. Parts that cannot all hold (types that
// share nothing, a minimum above a maximum, a required property another part forbids) make an
// unsatisfiable error that names the schema.

// unsatisfiable is a schema no value can satisfy, or one the sandbox cannot make a value for.
type unsatisfiable struct {
	Schema string // where: a $ref such as #/components/schemas/Pet, or the operation's place
	Field  string // the JSON path of the value being made, such as $.owner.age
	Msg    string
}

func (e *unsatisfiable) Error() string {
	s := "schema " + e.Schema
	if e.Field != "" && e.Field != "$" {
		s += " (at " + e.Field + ")"
	}
	return s + ": " + e.Msg
}

// keysOf returns a mapping's keys sorted, so every walk is in the same order.
func keysOf(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// types returns the schema's types ("type" as a string or a list; OpenAPI 3.0's nullable adds
// "null"), and whether it names any.
func types(s map[string]any) ([]string, bool) {
	var ts []string
	switch t := s["type"].(type) {
	case string:
		ts = []string{t}
	case []any:
		for _, x := range t {
			if x, ok := x.(string); ok {
				ts = append(ts, x)
			}
		}
	default:
		return nil, false
	}
	if boolean(s, "nullable") && !slices.Contains(ts, "null") {
		ts = append(ts, "null")
	}
	return ts, true
}

// flatten resolves s's $ref (a $ref with siblings is an allOf of both) and merges its allOf
// parts into one mapping. at names the schema in errors (the last $ref followed). A boolean
// schema true is the empty mapping; false is unsatisfiable.
func (g *gen) flatten(s any, at string) (map[string]any, string, error) {
	switch v := s.(type) {
	case bool:
		if !v {
			return nil, at, g.fail(at, "the schema is false: no value satisfies it")
		}
		return map[string]any{}, at, nil
	case nil:
		return map[string]any{}, at, nil
	}
	m := obj(s)
	if m == nil {
		return nil, at, g.fail(at, fmt.Sprintf("expected a schema object, found %T", s))
	}
	if ref, ok := m["$ref"].(string); ok {
		target, err := pointer(g.root, ref)
		if err != nil {
			return nil, at, g.fail(at, err.Error())
		}
		if len(m) == 1 || onlyAnnotations(m) {
			return g.flatten(target, ref)
		}
		rest := maps.Clone(m)
		delete(rest, "$ref")
		return g.flatten(map[string]any{"allOf": []any{target, rest}}, at)
	}
	all, ok := m["allOf"].([]any)
	if !ok {
		return m, at, nil
	}
	out := maps.Clone(m)
	delete(out, "allOf")
	for _, part := range all {
		p, pat, err := g.flatten(part, at)
		if err != nil {
			return nil, at, err
		}
		if err := g.merge(out, p, pat); err != nil {
			return nil, at, err
		}
	}
	return out, at, nil
}

// onlyAnnotations reports whether a $ref's siblings only describe it.
func onlyAnnotations(m map[string]any) bool {
	for k := range m {
		switch k {
		case "$ref", "description", "summary", "title", "example", "examples", "deprecated", "$comment":
		default:
			if len(k) < 2 || k[:2] != "x-" {
				return false
			}
		}
	}
	return true
}

// merge adds the constraints of p to out, so that a value satisfying out satisfies both.
func (g *gen) merge(out, p map[string]any, at string) error {
	// A part that admits no other properties limits every property the value may have.
	if ap, ok := p["additionalProperties"].(bool); ok && !ap {
		allowed := keysOf(obj(p["properties"]))
		if prev, ok := out[allowedKey].([]string); ok {
			allowed = slices.DeleteFunc(allowed, func(k string) bool { return !slices.Contains(prev, k) })
		}
		out[allowedKey] = allowed
	}
	if prev, ok := p[allowedKey].([]string); ok {
		if cur, ok := out[allowedKey].([]string); ok {
			prev = slices.DeleteFunc(slices.Clone(prev), func(k string) bool { return !slices.Contains(cur, k) })
		}
		out[allowedKey] = prev
	}
	for _, k := range keysOf(p) {
		v := p[k]
		cur, has := out[k]
		if !has {
			out[k] = v
			continue
		}
		switch k {
		case "properties":
			props := maps.Clone(obj(cur))
			for name, ps := range obj(v) {
				if old, ok := props[name]; ok {
					props[name] = map[string]any{"allOf": []any{old, ps}}
				} else {
					props[name] = ps
				}
			}
			out[k] = props
		case "required":
			req, _ := cur.([]any)
			for _, r := range asList(v) {
				if !slices.Contains(req, r) {
					req = append(req, r)
				}
			}
			out[k] = req
		case "type":
			a, _ := types(out)
			b, _ := types(p)
			var both []any
			for _, t := range a {
				if slices.Contains(b, t) || (t == "integer" && slices.Contains(b, "number")) {
					both = append(both, t)
				} else if t == "number" && slices.Contains(b, "integer") {
					both = append(both, "integer")
				}
			}
			if len(both) == 0 {
				return g.fail(at, fmt.Sprintf("its parts want types %v and %v, which no value is", a, b))
			}
			out[k] = both
			delete(out, "nullable")
		case "minimum", "minLength", "minItems", "minProperties", "exclusiveMinimum":
			if x, ok := num(p, k); ok {
				if y, ok := num(out, k); !ok || x > y {
					out[k] = v
				}
			}
		case "maximum", "maxLength", "maxItems", "maxProperties", "exclusiveMaximum":
			if x, ok := num(p, k); ok {
				if y, ok := num(out, k); !ok || x < y {
					out[k] = v
				}
			}
		case "enum":
			var both []any
			for _, e := range asList(cur) {
				if slices.ContainsFunc(asList(v), func(f any) bool { return equalJSON(e, f) }) {
					both = append(both, e)
				}
			}
			if len(both) == 0 {
				return g.fail(at, "its parts allow enum values that have none in common")
			}
			out[k] = both
		case "oneOf", "anyOf":
			// Two choices at once: keep both, each part must hold (checked on the whole answer).
			out[k] = []any{map[string]any{"allOf": []any{map[string]any{k: cur}, map[string]any{k: v}}}}
		}
	}
	return nil
}

// allowedKey holds, in a flattened schema, the only property names its parts allow.
const allowedKey = "\x00allowed"

// asList returns v as a list, or nil.
func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// equalJSON compares two plain JSON values, numbers by value.
func equalJSON(a, b any) bool {
	if x, ok := toFloat(a); ok {
		y, ok := toFloat(b)
		return ok && x == y
	}
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for k, x := range av {
			if y, ok := bv[k]; !ok || !equalJSON(x, y) {
				return false
			}
		}
		return true
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for i := range av {
			if !equalJSON(av[i], bv[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

// toFloat returns a plain JSON number as a float64.
func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	case int:
		return float64(n), true
	}
	return 0, false
}
