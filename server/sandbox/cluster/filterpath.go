package cluster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// jsonNode is a JSON value that keeps its object keys in order, so that an answer filtered by
// filter_path or written as YAML keeps the order OpenSearch writes.
type jsonNode struct {
	kind byte        // 'o' object, 'a' array, 's' string, 'n' number, 'b' boolean, 'z' null
	keys []string    // an object's keys
	vals []*jsonNode // an object's values (beside keys), or an array's items
	text string      // a string's value, a number's literal, "true" or "false"
}

// parseNode reads the JSON document data into a jsonNode.
func parseNode(data []byte) (*jsonNode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := readNode(dec)
	if err != nil {
		return nil, fmt.Errorf("reading the answer: %w", err)
	}
	return n, nil
}

// readNode reads one value from dec.
func readNode(dec *json.Decoder) (*jsonNode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n := &jsonNode{kind: 'o'}
		if t == '[' {
			n.kind = 'a'
		}
		for dec.More() {
			if n.kind == 'o' {
				key, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, key.(string))
			}
			v, err := readNode(dec)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, v)
		}
		_, err := dec.Token() // the closing delimiter
		return n, err
	case string:
		return &jsonNode{kind: 's', text: t}, nil
	case json.Number:
		return &jsonNode{kind: 'n', text: t.String()}, nil
	case bool:
		return &jsonNode{kind: 'b', text: fmt.Sprint(t)}, nil
	default:
		return &jsonNode{kind: 'z'}, nil
	}
}

// filterPath applies OpenSearch's filter_path to n: comma-separated expressions of dotted
// field names, where * matches within a name and ** any number of levels; arrays are looked
// through. Expressions starting with - exclude, and are applied before the inclusive ones.
// Nothing kept gives an empty object, as OpenSearch answers.
func filterPath(n *jsonNode, expr string) *jsonNode {
	var include, exclude [][]string
	for _, e := range strings.Split(expr, ",") {
		e = strings.TrimSpace(e)
		switch {
		case e == "" || e == "-":
		case strings.HasPrefix(e, "-"):
			exclude = append(exclude, strings.Split(e[1:], "."))
		default:
			include = append(include, strings.Split(e, "."))
		}
	}
	if len(exclude) > 0 {
		n = excludePaths(n, exclude)
	}
	if len(include) > 0 {
		if n = includePaths(n, include); n == nil {
			n = &jsonNode{kind: 'o'}
		}
	}
	return n
}

// stepPaths returns what is left of paths past the field key, and whether one of them ends there
// (the whole field is matched).
func stepPaths(paths [][]string, key string) (rest [][]string, whole bool) {
	var walk func(p []string)
	walk = func(p []string) {
		if len(p) == 0 {
			whole = true
			return
		}
		if p[0] == "**" {
			rest = append(rest, p) // ** takes this level and may take more
			walk(p[1:])            // or none: the next name is matched here
			return
		}
		if simpleMatch(p[0], key) {
			if len(p) == 1 {
				whole = true
				return
			}
			rest = append(rest, p[1:])
		}
	}
	for _, p := range paths {
		walk(p)
	}
	return rest, whole
}

// includePaths keeps the parts of n that paths name, or returns nil when none.
func includePaths(n *jsonNode, paths [][]string) *jsonNode {
	switch n.kind {
	case 'o':
		out := &jsonNode{kind: 'o'}
		for i, k := range n.keys {
			rest, whole := stepPaths(paths, k)
			v := n.vals[i]
			if !whole {
				if len(rest) == 0 {
					continue
				}
				if v = includePaths(v, rest); v == nil {
					continue
				}
			}
			out.keys, out.vals = append(out.keys, k), append(out.vals, v)
		}
		if len(out.keys) == 0 {
			return nil
		}
		return out
	case 'a':
		out := &jsonNode{kind: 'a'}
		for _, item := range n.vals {
			if v := includePaths(item, paths); v != nil {
				out.vals = append(out.vals, v)
			}
		}
		if len(out.vals) == 0 {
			return nil
		}
		return out
	default:
		return nil // a path goes on past a value that has no fields
	}
}

// excludePaths drops the parts of n that paths name.
func excludePaths(n *jsonNode, paths [][]string) *jsonNode {
	switch n.kind {
	case 'o':
		out := &jsonNode{kind: 'o'}
		for i, k := range n.keys {
			rest, whole := stepPaths(paths, k)
			if whole {
				continue
			}
			v := n.vals[i]
			if len(rest) > 0 {
				v = excludePaths(v, rest)
			}
			out.keys, out.vals = append(out.keys, k), append(out.vals, v)
		}
		return out
	case 'a':
		out := &jsonNode{kind: 'a'}
		for _, item := range n.vals {
			out.vals = append(out.vals, excludePaths(item, paths))
		}
		return out
	default:
		return n
	}
}

// simpleMatch reports whether name matches pattern, where each * matches any run of
// characters and nothing else is special (OpenSearch's Regex.simpleMatch).
func simpleMatch(pattern, name string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == name
	}
	if !strings.HasPrefix(name, parts[0]) {
		return false
	}
	name = name[len(parts[0]):]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(name, mid)
		if i < 0 {
			return false
		}
		name = name[i+len(mid):]
	}
	return strings.HasSuffix(name, parts[len(parts)-1])
}
