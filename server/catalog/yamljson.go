package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// nodeJSON encodes a YAML node as JSON, keeping the document's key order (a map would sort
// the keys, and examples read best in the order their authors wrote). A nil node gives nil.
func nodeJSON(n *yaml.Node) (json.RawMessage, error) {
	if n == nil {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := writeNodeJSON(&buf, n, 0); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// maxNodeDepth bounds the recursion through aliases and nesting.
const maxNodeDepth = 100

func writeNodeJSON(buf *bytes.Buffer, n *yaml.Node, depth int) error {
	if depth > maxNodeDepth {
		return fmt.Errorf("line %d: value nested too deeply", n.Line)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			buf.WriteString("null")
			return nil
		}
		return writeNodeJSON(buf, n.Content[0], depth+1)
	case yaml.AliasNode:
		return writeNodeJSON(buf, n.Alias, depth+1)
	case yaml.MappingNode:
		buf.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				buf.WriteByte(',')
			}
			k, _ := json.Marshal(n.Content[i].Value)
			buf.Write(k)
			buf.WriteByte(':')
			if err := writeNodeJSON(buf, n.Content[i+1], depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeNodeJSON(buf, c, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case yaml.ScalarNode:
		return writeScalarJSON(buf, n)
	default:
		return fmt.Errorf("line %d: unsupported YAML node", n.Line)
	}
	return nil
}

// writeScalarJSON writes a scalar by its resolved YAML tag: strings stay strings, numbers
// become JSON numbers, and so on.
func writeScalarJSON(buf *bytes.Buffer, n *yaml.Node) error {
	switch n.ShortTag() {
	case "!!null":
		buf.WriteString("null")
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		buf.WriteString(strconv.FormatBool(b))
	case "!!int":
		var i int64
		if err := n.Decode(&i); err != nil {
			var u uint64
			if err2 := n.Decode(&u); err2 != nil {
				return fmt.Errorf("line %d: %w", n.Line, err)
			}
			buf.WriteString(strconv.FormatUint(u, 10))
			return nil
		}
		buf.WriteString(strconv.FormatInt(i, 10))
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Errorf("line %d: %s has no JSON form", n.Line, n.Value)
		}
		buf.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
	default:
		s, _ := json.Marshal(n.Value)
		buf.Write(s)
	}
	return nil
}

// scalarKey returns the text a value is looked up by in a map keyed by strings, such as
// x-enumDescriptions: the scalar as written, or its JSON for other nodes.
func scalarKey(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	b, _ := nodeJSON(n)
	return strings.TrimSpace(string(b))
}
