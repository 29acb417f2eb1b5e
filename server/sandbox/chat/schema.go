package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// argGen generates arguments for a tool's parameter schema from the prompt.
//
// It follows type, properties, required (optional properties are filled only
// when the schema lists no required ones, or to reach minProperties), items,
// minItems/maxItems, enum and const (first value), minimum/maximum
// (inclusive and exclusive), multipleOf for integers, minLength/maxLength,
// format (date, date-time, time, email, uri, uuid), $ref into the same
// schema, allOf (merged), anyOf/oneOf (first alternative that is not null),
// and pattern (see patternString: a string from the prompt that matches, or
// the shortest match built from the expression). Strings come from the
// prompt: a quoted phrase, capitalised names for location-like properties,
// the prompt itself for query-like ones. Generation is bounded (depth, array and string sizes,
// total values), so a hostile schema costs little; past those bounds the
// arguments may not validate.
type argGen struct {
	root    any
	prompt  promptFacts
	values  int // values generated so far
	variant int // which of several valid values to pick, for the items of a uniqueItems array
}

// Bounds on argument generation.
const (
	maxSchemaDepth = 12    // nesting through objects, arrays and $ref
	maxValues      = 2000  // values in one call's arguments
	maxArrayItems  = 64    // items generated for minItems
	maxStringRunes = 10000 // runes generated for minLength
)

// toolArguments returns JSON arguments for the parameter schema params
// (which may be empty: a function without parameters gets {}).
func toolArguments(params json.RawMessage, prompt promptFacts) (string, error) {
	params = bytes.TrimSpace(params)
	if len(params) == 0 || bytes.Equal(params, []byte("null")) {
		return "{}", nil
	}
	root, err := decodeOrdered(params)
	if err != nil {
		return "", err
	}
	g := argGen{root: root, prompt: prompt}
	var buf bytes.Buffer
	encodeValue(&buf, g.value(root, "", 0))
	return buf.String(), nil
}

// value generates a value for schema s of a property called name.
func (g *argGen) value(s any, name string, depth int) any {
	g.values++
	sch, ok := s.(*object)
	if !ok || depth > maxSchemaDepth || g.values > maxValues {
		if depth == 0 {
			return newObject()
		}
		return g.prompt.phrase(name)
	}
	if ref, ok := sch.get("$ref").(string); ok {
		if target := g.resolve(ref); target != nil {
			return g.value(target, name, depth+1)
		}
	}
	if c, ok := sch.vals["const"]; ok {
		return c
	}
	if enum, ok := sch.get("enum").([]any); ok && len(enum) > 0 {
		return enum[g.variant%len(enum)]
	}
	if all, ok := sch.get("allOf").([]any); ok && len(all) > 0 {
		return g.value(g.mergeAll(sch, all), name, depth+1)
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if alts, ok := sch.get(key).([]any); ok && len(alts) > 0 {
			for _, alt := range alts {
				if schemaType(g.deref(alt)) != "null" {
					return g.value(alt, name, depth+1)
				}
			}
			return nil
		}
	}
	switch schemaType(sch) {
	case "object":
		return g.object(sch, depth)
	case "array":
		return g.array(sch, name, depth)
	case "integer":
		return g.number(sch, name, true)
	case "number":
		return g.number(sch, name, false)
	case "boolean":
		return true
	case "null":
		return nil
	default:
		return g.str(sch, name)
	}
}

// schemaType returns the schema's type, the first non-null one when it is a
// list, or the type its keywords imply.
func schemaType(s any) string {
	sch, ok := s.(*object)
	if !ok {
		return ""
	}
	switch t := sch.get("type").(type) {
	case string:
		return t
	case []any:
		for _, e := range t {
			if name, ok := e.(string); ok && name != "null" {
				return name
			}
		}
		if len(t) > 0 {
			return "null"
		}
	}
	switch {
	case sch.get("properties") != nil || sch.get("required") != nil:
		return "object"
	case sch.get("items") != nil || sch.get("prefixItems") != nil:
		return "array"
	}
	return ""
}

// resolve follows a local reference such as #/$defs/item.
func (g *argGen) resolve(ref string) any {
	path, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil
	}
	cur := g.root
	for part := range strings.SplitSeq(strings.TrimPrefix(path, "/"), "/") {
		if part == "" {
			continue
		}
		part = strings.NewReplacer("~1", "/", "~0", "~").Replace(part)
		o, ok := cur.(*object)
		if !ok {
			return nil
		}
		cur = o.get(part)
	}
	return cur
}

// deref follows s's $ref, if any.
func (g *argGen) deref(s any) any {
	if sch, ok := s.(*object); ok {
		if ref, ok := sch.get("$ref").(string); ok {
			if target := g.resolve(ref); target != nil {
				return target
			}
		}
	}
	return s
}

// mergeAll merges the subschemas of allOf (and the schema's own keywords)
// into one: properties and required are united, other keywords are taken from
// the first schema that has them.
func (g *argGen) mergeAll(sch *object, all []any) *object {
	merged := newObject()
	props := newObject()
	var required []any
	for _, s := range append([]any{sch}, all...) {
		o, ok := g.deref(s).(*object)
		if !ok {
			continue
		}
		for _, k := range o.keys {
			switch k {
			case "allOf", "$ref":
			case "properties":
				if p, ok := o.vals[k].(*object); ok {
					for _, pk := range p.keys {
						props.set(pk, p.vals[pk])
					}
				}
			case "required":
				if r, ok := o.vals[k].([]any); ok {
					required = append(required, r...)
				}
			default:
				if _, ok := merged.vals[k]; !ok {
					merged.set(k, o.vals[k])
				}
			}
		}
	}
	if len(props.keys) > 0 {
		merged.set("properties", props)
	}
	if required != nil {
		merged.set("required", required)
	}
	return merged
}

// object generates an object for sch.
func (g *argGen) object(sch *object, depth int) *object {
	out := newObject()
	props, _ := sch.get("properties").(*object)
	required, hasRequired := sch.get("required").([]any)
	for _, r := range required {
		if key, ok := r.(string); ok {
			out.set(key, g.value(props.get(key), key, depth+1))
		}
	}
	minProps := intKeyword(sch, "minProperties", 0)
	if props != nil {
		for _, key := range props.keys {
			if _, done := out.vals[key]; done {
				continue
			}
			if hasRequired && len(out.keys) >= minProps {
				break
			}
			out.set(key, g.value(props.vals[key], key, depth+1))
		}
	}
	g.fillProperties(sch, out, minProps, depth)
	// Keep the schema's order: required properties were added first.
	if props != nil {
		ordered := newObject()
		for _, key := range props.keys {
			if v, ok := out.vals[key]; ok {
				ordered.set(key, v)
			}
		}
		for _, key := range out.keys {
			if _, ok := ordered.vals[key]; !ok {
				ordered.set(key, out.vals[key])
			}
		}
		out = ordered
	}
	return out
}

// array generates an array for sch.
func (g *argGen) array(sch *object, name string, depth int) []any {
	prefix, _ := sch.get("prefixItems").([]any)
	n := min(max(intKeyword(sch, "minItems", 1), len(prefix), 1), maxArrayItems)
	if maxItems := intKeyword(sch, "maxItems", -1); maxItems >= 0 && n > maxItems {
		n = maxItems
	}
	items := sch.get("items")
	unique, _ := sch.get("uniqueItems").(bool)
	contains := sch.get("contains")
	out := make([]any, 0, n)
	seen := map[string]bool{}
	for i := range n {
		itemSchema := items
		if i < len(prefix) {
			itemSchema = prefix[i]
		}
		if i == 0 && contains != nil && len(prefix) == 0 {
			itemSchema = contains // one item matches contains (and, usually, items too)
		}
		saved := g.variant
		if unique {
			g.variant = i
		}
		v := g.value(itemSchema, singular(name), depth+1)
		g.variant = saved
		var key bytes.Buffer
		encodeValue(&key, v)
		if unique && seen[key.String()] {
			v = vary(v, i)
			key.Reset()
			encodeValue(&key, v)
		}
		seen[key.String()] = true
		out = append(out, v)
	}
	return out
}

// vary makes the i-th item of a uniqueItems array differ from the others.
func vary(v any, i int) any {
	switch t := v.(type) {
	case string:
		return fmt.Sprintf("%s %d", t, i+1)
	case float64:
		return t + float64(i)
	}
	return v
}
