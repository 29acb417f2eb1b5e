package flow

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/antchfx/xmlquery"
)

// Replace applies a payload replacement (Arazzo 1.0.1 § Payload Replacement Object): in a JSON
// payload, target is a JSON pointer whose value is set (a missing last member is added, "-"
// appends to a list); in a text payload (XML), target is an XPath expression whose nodes get
// the value as their text.
func Replace(payload any, target string, value any) (any, error) {
	if text, ok := payload.(string); ok {
		return replaceXML(text, target, value)
	}
	if target == "" || target == "/" && payload == nil {
		return value, nil
	}
	if !strings.HasPrefix(target, "/") {
		return nil, fmt.Errorf("target %q: a JSON pointer starts with /", target)
	}
	toks := strings.Split(target[1:], "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return set(payload, toks, value, target)
}

func set(cur any, toks []string, value any, target string) (any, error) {
	if len(toks) == 0 {
		return value, nil
	}
	tok := toks[0]
	switch t := cur.(type) {
	case map[string]any:
		next, ok := t[tok]
		if !ok && len(toks) > 1 {
			return nil, fmt.Errorf("target %s: the payload has no member %q", target, tok)
		}
		v, err := set(next, toks[1:], value, target)
		if err != nil {
			return nil, err
		}
		t[tok] = v
		return t, nil
	case []any:
		if tok == "-" && len(toks) == 1 {
			return append(t, value), nil
		}
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= len(t) {
			return nil, fmt.Errorf("target %s: the payload has no item %s", target, tok)
		}
		v, err := set(t[i], toks[1:], value, target)
		if err != nil {
			return nil, err
		}
		t[i] = v
		return t, nil
	}
	return nil, fmt.Errorf("target %s: %s has no member %q", target, quoteText(cur), tok)
}

// replaceXML sets the text of the nodes an XPath selects in an XML payload.
func replaceXML(text, target string, value any) (any, error) {
	doc, err := xmlquery.Parse(strings.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("target %s: the payload is neither JSON nor XML: %w", target, err)
	}
	nodes, err := xmlquery.QueryAll(doc, target)
	if err != nil {
		return nil, fmt.Errorf("target %s: %w", target, err)
	}
	if len(nodes) == 0 {
		return nil, fmt.Errorf("target %s selects nothing in the payload", target)
	}
	for _, n := range nodes {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			xmlquery.RemoveFromTree(c)
			c = next
		}
		xmlquery.AddChild(n, &xmlquery.Node{Type: xmlquery.TextNode, Data: Text(value)})
	}
	out := doc.OutputXML(false)
	if !strings.HasPrefix(strings.TrimSpace(text), "<?xml") {
		out = strings.TrimPrefix(out, `<?xml version="1.0"?>`) // a declaration the payload did not have
	}
	return out, nil
}
