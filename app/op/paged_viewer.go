package op

import (
	"encoding/json"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/ui"
)

// pagedColumns caps the table's columns; wider items are read in the JSON tab.
const pagedColumns = 8

func init() {
	bodyViewers[catalog.ViewerPaged] = func(op *catalog.Operation, status int, body []byte) app.UI {
		root, ok := parseJSON(body)
		if !ok {
			return app.P().Class("muted").Text("The response is not JSON; see the Raw tab.")
		}
		return pagedTable(op.Pagination, root)
	}
}

// pagedTable shows the items of one page of a paged list as a table: a row per item, a column
// per field in the order the items first use them. The paging controls sit above every tab.
func pagedTable(p *catalog.Pagination, root *jsonNode) app.UI {
	items := resultsNode(p, root)
	if items == nil || items.kind != 'a' {
		return app.P().Class("muted").Text("This answer holds no list of items; see the JSON tab.")
	}
	if len(items.children) == 0 {
		return app.P().ID("paged-empty").Class("muted").Text("This page holds no items.")
	}
	cols, more := itemColumns(items.children)
	head := make([]app.UI, 0, len(cols)+1)
	head = append(head, app.Th().Class("num").Text("#"))
	for _, c := range cols {
		head = append(head, app.Th().Class("mono").Text(c))
	}
	rows := make([]app.UI, 0, len(items.children))
	for i, it := range items.children {
		cells := make([]app.UI, 0, len(cols)+1)
		cells = append(cells, app.Td().Class("num muted").Text(ui.Itoa(i+1)))
		for _, c := range cols {
			cells = append(cells, app.Td().Body(cell(it, c)))
		}
		rows = append(rows, app.Tr().Body(cells...))
	}
	return app.Div().Class("paged").Body(
		app.Div().Class("table-scroll").Body(
			app.Table().ID("paged-table").Class("data-table").Body(
				app.THead().Body(app.Tr().Body(head...)),
				app.TBody().Body(rows...),
			),
		),
		app.If(more > 0, func() app.UI {
			return app.P().Class("muted small").Text(ui.Plural(more, "more field is", "more fields are") + " in the JSON tab.")
		}),
	)
}

// itemColumns returns the field names of the items in order of first use, at most
// pagedColumns of them, and how many more there are. Items that are not objects get one
// column, "value".
func itemColumns(items []*jsonNode) (cols []string, more int) {
	seen := map[string]bool{}
	for _, it := range items {
		names := []string{"value"}
		if it.kind == 'o' {
			names = names[:0]
			for _, c := range it.children {
				names = append(names, c.key)
			}
		}
		for _, n := range names {
			if seen[n] {
				continue
			}
			seen[n] = true
			if len(cols) < pagedColumns {
				cols = append(cols, n)
			} else {
				more++
			}
		}
	}
	return cols, more
}

// cell renders one field of an item: a scalar as in the JSON tree, an object or array as
// compact JSON, a missing field as empty.
func cell(item *jsonNode, col string) app.UI {
	v := item
	if item.kind == 'o' {
		v = nil
		for _, c := range item.children {
			if c.key == col {
				v = c
				break
			}
		}
	}
	switch {
	case v == nil:
		return app.Text("")
	case v.kind == 'o' || v.kind == 'a':
		full := compactJSON(v)
		return ui.BreakableElem("code", []ui.Attr{{Name: "class", Value: "mono small nested"}, {Name: "title", Value: full}}, ui.Shorten(full, 60))
	}
	return scalar(v)
}

// compactJSON writes a parsed value back as one line of JSON, keys in their order.
func compactJSON(n *jsonNode) string {
	var b strings.Builder
	n.writeCompact(&b)
	return b.String()
}

func (n *jsonNode) writeCompact(b *strings.Builder) {
	switch n.kind {
	case 'o', 'a':
		open, end := byte('['), byte(']')
		if n.kind == 'o' {
			open, end = '{', '}'
		}
		b.WriteByte(open)
		for i, c := range n.children {
			if i > 0 {
				b.WriteByte(',')
			}
			if n.kind == 'o' {
				k, _ := json.Marshal(c.key)
				b.Write(k)
				b.WriteByte(':')
			}
			c.writeCompact(b)
		}
		b.WriteByte(end)
	case 's':
		q, _ := json.Marshal(n.text)
		b.Write(q)
	case 'z':
		b.WriteString("null")
	default: // numbers and booleans as written
		b.WriteString(n.text)
	}
}
