package fromdoc

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// The document is also kept as plain JSON values (raw): map[string]any, []any, string,
// float64 or int64, bool and nil. Schemas are read from it, $ref by $ref, so a schema that
// refers to itself (a tree) is followed as deep as an answer needs and no deeper.

// plain converts a YAML node into plain JSON values. Mapping keys are kept as written (a
// response code 200 is the key "200"); an alias is followed.
func plain(n *yaml.Node) any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return plain(n.Content[0])
	case yaml.AliasNode:
		return plain(n.Alias)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind == yaml.AliasNode {
				k = k.Alias
			}
			if k.Value == "<<" && k.Tag == "!!merge" { // a YAML merge key: the mapping's keys come in
				if mm, ok := plain(n.Content[i+1]).(map[string]any); ok {
					for mk, mv := range mm {
						if _, set := m[mk]; !set {
							m[mk] = mv
						}
					}
				}
				continue
			}
			m[k.Value] = plain(n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		s := make([]any, len(n.Content))
		for i, c := range n.Content {
			s[i] = plain(c)
		}
		return s
	}
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		b, _ := strconv.ParseBool(strings.ToLower(n.Value))
		return b
	case "!!int":
		if i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(n.Value, 64)
		return f
	case "!!float":
		switch strings.ToLower(n.Value) {
		case ".inf", "+.inf":
			return math.MaxFloat64
		case "-.inf":
			return -math.MaxFloat64
		}
		f, err := strconv.ParseFloat(n.Value, 64)
		if err != nil {
			return n.Value
		}
		return f
	}
	return n.Value
}

// pointer finds the value at a local JSON pointer (RFC 6901, "#/components/schemas/Pet", its
// segments percent-encoded as a URI fragment may be) in root.
func pointer(root any, ref string) (any, error) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, fmt.Errorf("$ref %q points outside the document, which the sandbox does not follow", ref)
	}
	if frag == "" {
		return root, nil
	}
	if un, err := url.PathUnescape(frag); err == nil {
		frag = un
	}
	cur := root
	for _, seg := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[seg]
			if !ok {
				return nil, fmt.Errorf("$ref %q does not resolve: no %q", ref, seg)
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(v) {
				return nil, fmt.Errorf("$ref %q does not resolve: no item %q", ref, seg)
			}
			cur = v[i]
		default:
			return nil, fmt.Errorf("$ref %q does not resolve", ref)
		}
	}
	return cur, nil
}

// deref follows $ref (a Reference Object, or a schema that is only a $ref) until a value that
// is not one, at most 32 times. It returns the value and the last $ref followed ("" if none).
func deref(root, v any) (any, string, error) {
	last := ""
	for range 32 {
		m, ok := v.(map[string]any)
		if !ok {
			return v, last, nil
		}
		ref, ok := m["$ref"].(string)
		if !ok {
			return v, last, nil
		}
		next, err := pointer(root, ref)
		if err != nil {
			return nil, ref, err
		}
		v, last = next, ref
	}
	return nil, last, fmt.Errorf("$ref %q: more than 32 references in a row", last)
}

// obj returns v as a mapping, or nil.
func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// str returns m[key] as a string, or "".
func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// num returns m[key] as a number.
func num(m map[string]any, key string) (float64, bool) {
	switch v := m[key].(type) {
	case int64:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

// boolean returns m[key] as a bool, false when absent.
func boolean(m map[string]any, key string) bool {
	b, _ := m[key].(bool)
	return b
}
