package walkthrough

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/pb33f/libopenapi/arazzo/expression"
	"go.yaml.in/yaml/v4"

	"loupe/app/catalog"
)

// carried lists the values of a request body payload that come from a runtime expression: each
// one's JSON pointer (under ptr), its resolved value and the expression, so the runner can mark
// where each carried value of the body came from.
func carried(n *yaml.Node, ptr string, ctx *expression.Context, out *[]catalog.WalkParam) error {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.ShortTag() != "!!str" {
			return nil
		}
		v, from, err := resolveString(n.Value, ctx)
		if err != nil || from == "" {
			return err
		}
		*out = append(*out, catalog.WalkParam{Name: ptr, In: "body", Values: []string{valueText(v)}, From: from})
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if err := carried(n.Content[i+1], ptr+"/"+pointerToken(n.Content[i].Value), ctx, out); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if err := carried(c, ptr+"/"+strconv.Itoa(i), ctx, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// pointerToken escapes a key as a JSON pointer token (RFC 6901).
func pointerToken(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// valueText is a value as the body shows it: a string as is, anything else as JSON.
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(Plain(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
