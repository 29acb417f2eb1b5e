package app

import (
	"net/url"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
)

// pageAction is posted by the response panel's Previous/Next buttons with a pageMove; the
// operation page applies it to the form and sends.
const pageAction = "loupe.page"

// pageMove is how to change the query parameters to get another page.
type pageMove struct {
	// Query holds the parameters to set.
	Query map[string]string
	// Exact means every other query parameter is cleared: the API gave a complete link
	// (next/previous URLs); a page token only sets its own parameter.
	Exact bool
}

// pageMoves reads a paged list's links or tokens from a response body.
func pageMoves(p *catalog.Pagination, root *jsonNode) (prev, next *pageMove) {
	if p == nil || root == nil || root.kind != 'o' {
		return nil, nil
	}
	move := func(field string) *pageMove {
		if field == "" {
			return nil
		}
		n := root.find(field)
		if n == nil || n.kind != 's' || n.text == "" {
			return nil
		}
		if p.TokenParam != "" {
			return &pageMove{Query: map[string]string{p.TokenParam: n.text}}
		}
		u, err := url.Parse(n.text)
		if err != nil {
			return nil
		}
		m := &pageMove{Query: map[string]string{}, Exact: true}
		for k, vs := range u.Query() {
			if len(vs) > 0 {
				m.Query[k] = vs[0]
			}
		}
		return m
	}
	return move(p.Previous), move(p.Next)
}

// pageBar renders the paging controls of a paged list response: the item count and the
// Previous/Next buttons.
func (r *responsePanel) pageBar(root *jsonNode) app.UI {
	pg := r.Op.Pagination
	prev, next := pageMoves(pg, root)
	var count, items string
	if pg != nil && pg.Count != "" && root != nil {
		if n := root.find(pg.Count); n != nil && n.kind == 'n' {
			count = n.text + " in all"
		}
	}
	if pg != nil && pg.Results != "" && root != nil {
		if n := root.find(pg.Results); n != nil && n.kind == 'a' {
			items = plural(len(n.children), "item", "items") + " on this page"
		}
	}
	if prev == nil && next == nil && items == "" {
		return nil
	}
	r.prev, r.next = prev, next
	return app.Div().Class("page-bar").Body(
		app.Span().Class("muted").Text(joinNonEmpty(items, count)),
		app.Span().Class("spacer"),
		app.Button().ID("page-prev").Type("button").Class("btn btn-small").Disabled(prev == nil).
			DataSet("dir", "prev").Text("← Previous page").OnClick(r.onPage),
		app.Button().ID("page-next").Type("button").Class("btn btn-small").Disabled(next == nil).
			DataSet("dir", "next").Text("Next page →").OnClick(r.onPage),
	)
}

func (r *responsePanel) onPage(ctx app.Context, e app.Event) {
	m := r.next
	if ctx.JSSrc().Get("dataset").Get("dir").String() == "prev" {
		m = r.prev
	}
	if m != nil {
		ctx.NewActionWithValue(pageAction, *m)
	}
}

// applyPage changes the form's query parameters as a page move says.
func (p *operationPage) applyPage(m pageMove) {
	for i := range p.Op.Parameters {
		prm := &p.Op.Parameters[i]
		if prm.In != "query" {
			continue
		}
		key := "query:" + prm.Name
		if v, ok := m.Query[prm.Name]; ok {
			p.st.Params[key] = []string{v}
		} else if m.Exact {
			delete(p.st.Params, key)
		}
	}
}

func joinNonEmpty(parts ...string) string {
	out := ""
	for _, p := range parts {
		if p == "" {
			continue
		}
		if out != "" {
			out += " · "
		}
		out += p
	}
	return out
}
