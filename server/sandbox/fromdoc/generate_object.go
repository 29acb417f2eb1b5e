package fromdoc

import (
	"fmt"
	"regexp"
	"slices"
)

// object makes an object: every required property, the optional ones when Choices.Optional
// (unless the direction leaves them out, or a part of an allOf forbids them), then more
// properties from additionalProperties or patternProperties while minProperties wants them.
func (g *gen) object(m map[string]any, at string) (any, error) {
	props := obj(m["properties"])
	allowed, closed := m[allowedKey].([]string)
	if ap, ok := m["additionalProperties"].(bool); ok && !ap && !closed {
		allowed, closed = keysOf(props), true
	}
	required := map[string]bool{}
	var names []string
	for _, r := range asList(m["required"]) {
		if name, ok := r.(string); ok && !required[name] {
			required[name] = true
			names = append(names, name)
		}
	}
	out := map[string]any{}
	maxProps := -1
	if n, ok := num(m, "maxProperties"); ok {
		maxProps = int(n)
	}
	if maxProps >= 0 && len(required) > maxProps {
		return nil, g.fail(at, fmt.Sprintf("%d properties are required but maxProperties is %d", len(required), maxProps))
	}
	recursing := g.recursing()
	add := func(name string, schema any) error {
		g.path = append(g.path, name)
		defer func() { g.path = g.path[:len(g.path)-1] }()
		v, err := g.value(schema, at)
		if err != nil {
			return err
		}
		out[name] = v
		return nil
	}
	for _, name := range names {
		if closed && !slices.Contains(allowed, name) {
			return nil, g.fail(at, fmt.Sprintf("property %q is required, but a part of the schema allows no property of that name", name))
		}
		schema, ok := props[name]
		if !ok {
			schema = additional(m, name)
		}
		if schema == false {
			return nil, g.fail(at, fmt.Sprintf("property %q is required, but its schema is false", name))
		}
		if err := add(name, schema); err != nil {
			return nil, err
		}
	}
	if g.choices.Optional && !recursing {
		for _, name := range keysOf(props) {
			if required[name] || (closed && !slices.Contains(allowed, name)) || (maxProps >= 0 && len(out) >= maxProps) {
				continue
			}
			ps, _, err := g.flatten(props[name], at)
			if err != nil || props[name] == false || g.skipped(ps) {
				continue
			}
			if err := add(name, props[name]); err != nil {
				continue // an optional property that cannot be made is left out
			}
		}
	}
	minProps := 0
	if n, ok := num(m, "minProperties"); ok {
		minProps = int(n)
	}
	for i := 1; len(out) < minProps; i++ {
		if i > minProps+len(props)+8 || closed {
			return nil, g.fail(at, fmt.Sprintf("minProperties is %d but only %d properties can be made", minProps, len(out)))
		}
		name := extraName(m, i)
		if _, taken := out[name]; taken {
			continue
		}
		if schema, ok := props[name]; ok {
			if err := add(name, schema); err != nil {
				return nil, err
			}
			continue
		}
		if err := add(name, additional(m, name)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// skipped reports whether an optional property is left out of this direction's values.
func (g *gen) skipped(ps map[string]any) bool {
	if g.dir == Response {
		return boolean(ps, "writeOnly")
	}
	return boolean(ps, "readOnly")
}

// additional returns the schema of a property not listed in properties: the first
// patternProperties entry whose pattern matches its name, else additionalProperties (true
// when absent).
func additional(m map[string]any, name string) any {
	pp := obj(m["patternProperties"])
	for _, p := range keysOf(pp) {
		if re, err := regexp.Compile(p); err == nil && re.MatchString(name) {
			return pp[p]
		}
	}
	if ap, ok := m["additionalProperties"]; ok {
		return ap
	}
	return true
}

// extraName names the i-th property made to reach minProperties: a name the
// propertyNames or patternProperties pattern allows, else key<i>.
func extraName(m map[string]any, i int) string {
	name := fmt.Sprintf("key%d", i)
	for _, p := range keysOf(obj(m["patternProperties"])) {
		if s, err := patternString(p, uint64(i), 1, 16); err == nil {
			return s
		}
	}
	if pn := obj(m["propertyNames"]); pn != nil {
		if p := str(pn, "pattern"); p != "" {
			if s, err := patternString(p, uint64(i), 1, 16); err == nil {
				return s
			}
		}
	}
	return name
}

// array makes a list: prefixItems, then items, at least minItems long and two long when
// nothing says otherwise (one inside a recursion), distinct when uniqueItems.
func (g *gen) array(m map[string]any, at string) (any, error) {
	lo, hi := 0, -1
	if n, ok := num(m, "minItems"); ok {
		lo = int(n)
	}
	if n, ok := num(m, "maxItems"); ok {
		hi = int(n)
	}
	if hi >= 0 && lo > hi {
		return nil, g.fail(at, fmt.Sprintf("minItems %d is above maxItems %d", lo, hi))
	}
	prefix := asList(m["prefixItems"])
	items, hasItems := m["items"]
	if items == false {
		hasItems = false
	}
	want := 2
	if g.recursing() || len(g.path) > 6 {
		want = 0
	}
	if !hasItems && m["items"] == false {
		want = len(prefix)
	}
	n := max(lo, want, len(prefix))
	if hi >= 0 {
		n = min(n, hi)
	}
	if n > 64 {
		if lo > 64 {
			n = lo
		} else {
			n = 64
		}
	}
	unique := boolean(m, "uniqueItems")
	out := make([]any, 0, n)
	for i := 0; i < n; i++ {
		var schema any = true
		switch {
		case i < len(prefix):
			schema = prefix[i]
		case hasItems:
			schema = items
		case m["items"] == false:
			return nil, g.fail(at, fmt.Sprintf("minItems %d needs more items than prefixItems allows", lo))
		}
		g.path = append(g.path, index(i))
		v, err := g.value(schema, at)
		for try := 0; err == nil && unique && try < 8 && slices.ContainsFunc(out, func(o any) bool { return equalJSON(o, v) }); try++ {
			v, err = g.value(schema, at)
		}
		g.path = g.path[:len(g.path)-1]
		if err != nil {
			if i >= lo { // items beyond minItems are optional
				break
			}
			return nil, err
		}
		if unique && slices.ContainsFunc(out, func(o any) bool { return equalJSON(o, v) }) {
			if i >= lo {
				break
			}
			return nil, g.fail(at, fmt.Sprintf("uniqueItems with minItems %d, but the items' schema allows fewer distinct values", lo))
		}
		out = append(out, v)
	}
	return out, nil
}
