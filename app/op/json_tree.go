package op

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/markdown"
	"loupe/app/ui"
)

// jsonNode is a parsed JSON value that keeps the order of object keys.
type jsonNode struct {
	kind     byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' boolean, 'z' null
	key      string
	text     string // scalar value as written (strings unquoted)
	children []*jsonNode
}

// parseJSON parses one JSON value keeping key order; ok is false for anything else.
func parseJSON(b []byte) (*jsonNode, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	n, err := parseValue(dec)
	if err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err == nil {
		return nil, false // trailing data
	}
	return n, true
}

func parseValue(dec *json.Decoder) (*jsonNode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n := &jsonNode{kind: 'a'}
		if t == '{' {
			n.kind = 'o'
		}
		for dec.More() {
			var key string
			if n.kind == 'o' {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ = kt.(string)
			}
			child, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			child.key = key
			n.children = append(n.children, child)
		}
		if _, err := dec.Token(); err != nil { // closing delimiter
			return nil, err
		}
		return n, nil
	case string:
		return &jsonNode{kind: 's', text: t}, nil
	case json.Number:
		return &jsonNode{kind: 'n', text: t.String()}, nil
	case bool:
		return &jsonNode{kind: 'b', text: strconv.FormatBool(t)}, nil
	default:
		return &jsonNode{kind: 'z', text: "null"}, nil
	}
}

// jsonTreeLimit bounds the nodes rendered, so a huge response does not freeze the page.
const jsonTreeLimit = 4000

// jsonTree renders a JSON document as a collapsible tree (#json-tree) built on <details>, so
// folding needs no state: the first two levels start open.
func jsonTree(root *jsonNode) app.UI {
	budget := jsonTreeLimit
	return app.Div().ID("json-tree").Class("json-tree mono").Body(
		renderNode(root, 0, false, &budget),
		app.If(budget <= 0, func() app.UI {
			return app.P().Class("muted").Text("The tree stops here; the Raw tab has the whole body.")
		}),
	)
}

func renderNode(n *jsonNode, depth int, inObject bool, budget *int) app.UI {
	*budget--
	var key app.UI
	if inObject {
		key = app.Span().Class("j-key").Text(strconv.Quote(n.key) + ": ")
	}
	if n.kind != 'o' && n.kind != 'a' {
		return app.Div().Class("j-row").Body(key, scalar(n))
	}
	open, close := "{", "}"
	count := ui.Plural(len(n.children), "key", "keys")
	if n.kind == 'a' {
		open, close = "[", "]"
		count = ui.Plural(len(n.children), "item", "items")
	}
	if len(n.children) == 0 {
		return app.Div().Class("j-row").Body(key, app.Span().Class("j-punct").Text(open+close))
	}
	var kids []app.UI
	for i, c := range n.children {
		if *budget <= 0 {
			kids = append(kids, app.Div().Class("j-row muted").Text("… "+ui.Itoa(len(n.children)-i)+" more"))
			break
		}
		kids = append(kids, renderNode(c, depth+1, n.kind == 'o', budget))
	}
	return app.Details().Class("j-node").Open(depth < 2).Body(
		app.Summary().Class("j-row").Body(
			key,
			app.Span().Class("j-punct").Text(open),
			app.Span().Class("j-count").Text(" "+count+hint(n)+" "),
			app.Span().Class("j-punct j-close-inline").Text(close),
		),
		app.Div().Class("j-children").Body(kids...),
		app.Div().Class("j-row j-punct").Text(close),
	)
}

// hint names a folded object by a telling field: ` name: "Paris"`.
func hint(n *jsonNode) string {
	if n.kind != 'o' {
		return ""
	}
	for _, key := range []string{"name", "title", "id", "@id", "slug", "@type", "type"} {
		for _, c := range n.children {
			if c.key == key && (c.kind == 's' || c.kind == 'n') {
				v := c.text
				if len(v) > 40 {
					v = v[:40] + "…"
				}
				if c.kind == 's' {
					v = strconv.Quote(v)
				}
				return ", " + key + ": " + v
			}
		}
	}
	return ""
}

// scalar renders a string, number, boolean or null; http(s) strings become links.
func scalar(n *jsonNode) app.UI {
	switch n.kind {
	case 's':
		if (strings.HasPrefix(n.text, "https://") || strings.HasPrefix(n.text, "http://")) && !markdown.Internal(n.text) {
			return ui.BreakableElem("a", []ui.Attr{{Name: "class", Value: "j-str"}, {Name: "href", Value: n.text}, {Name: "target", Value: "_blank"}, {Name: "rel", Value: "noopener noreferrer"}}, strconv.Quote(n.text))
		}
		return ui.BreakableElem("span", []ui.Attr{{Name: "class", Value: "j-str"}}, strconv.Quote(n.text))
	case 'n':
		return app.Span().Class("j-num").Text(n.text)
	case 'b':
		return app.Span().Class("j-bool").Text(n.text)
	}
	return app.Span().Class("j-null").Text("null")
}

// find returns the value at a dotted path ("error.message"), or nil.
func (n *jsonNode) find(path string) *jsonNode {
	cur := n
	for _, part := range strings.Split(path, ".") {
		if cur == nil {
			return nil
		}
		var next *jsonNode
		switch cur.kind {
		case 'o':
			for _, c := range cur.children {
				if c.key == part {
					next = c
					break
				}
			}
		case 'a':
			if i, err := strconv.Atoi(part); err == nil && i < len(cur.children) {
				next = cur.children[i]
			}
		}
		cur = next
	}
	return cur
}
