package op

import (
	"net/url"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/fetch"
	"loupe/app/request"
	"loupe/app/ui"
)

// PageAction is posted by the response panel's Previous/Next buttons with a PageMove; the
// operation page applies it to the form and sends.
const PageAction = "loupe.page"

// PageMove is how to change the query parameters to get another page.
type PageMove struct {
	// Query holds the parameters to set.
	Query map[string]string
	// Exact means every other query parameter is cleared: the API gave a complete link
	// (next/previous URLs); a page token only sets its own parameter.
	Exact bool
}

// pageMovesOf reads a paged list's moves from a response: from its Link header when the
// list keeps its links there (Pagination.Links "header"), otherwise from its body.
func pageMovesOf(p *catalog.Pagination, root *jsonNode, headers []fetch.Header) (prev, next *PageMove) {
	if p == nil || p.Links != "header" {
		return pageMoves(p, root)
	}
	var links map[string]string
	for _, h := range headers {
		if strings.EqualFold(h.Name, "Link") {
			links = parseLinkHeader(h.Value)
			break
		}
	}
	move := func(rel string) *PageMove {
		u, err := url.Parse(links[strings.ToLower(rel)])
		if rel == "" || links[strings.ToLower(rel)] == "" || err != nil {
			return nil
		}
		m := &PageMove{Query: map[string]string{}, Exact: true}
		for k, vs := range u.Query() {
			if len(vs) > 0 {
				m.Query[k] = vs[0]
			}
		}
		return m
	}
	return move(p.Previous), move(p.Next)
}

// parseLinkHeader reads an RFC 8288 Link header into rel -> URL.
func parseLinkHeader(v string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(v, ",") {
		target, params, ok := strings.Cut(strings.TrimSpace(part), ";")
		if !ok || !strings.HasPrefix(target, "<") || !strings.HasSuffix(target, ">") {
			continue
		}
		href := target[1 : len(target)-1]
		for _, prm := range strings.Split(params, ";") {
			k, val, _ := strings.Cut(strings.TrimSpace(prm), "=")
			if strings.EqualFold(k, "rel") {
				for _, rel := range strings.Fields(strings.Trim(val, `"`)) {
					out[strings.ToLower(rel)] = href
				}
			}
		}
	}
	return out
}

// resultsNode is the list of a page's items: the Results field, or the body itself when the
// list keeps its links in a header and names no field.
func resultsNode(p *catalog.Pagination, root *jsonNode) *jsonNode {
	switch {
	case p == nil || root == nil:
		return nil
	case p.Results == "" && p.Links == "header":
		return root
	case p.Results == "":
		return nil
	}
	return root.find(p.Results)
}

// pageMoves reads a paged list's links or tokens from a response body.
func pageMoves(p *catalog.Pagination, root *jsonNode) (prev, next *PageMove) {
	if p == nil || root == nil || root.kind != 'o' {
		return nil, nil
	}
	move := func(field string) *PageMove {
		if field == "" {
			return nil
		}
		n := root.find(field)
		if n == nil || n.kind != 's' || n.text == "" {
			return nil
		}
		if p.TokenParam != "" {
			return &PageMove{Query: map[string]string{p.TokenParam: n.text}}
		}
		u, err := url.Parse(n.text)
		if err != nil {
			return nil
		}
		m := &PageMove{Query: map[string]string{}, Exact: true}
		for k, vs := range u.Query() {
			if len(vs) > 0 {
				m.Query[k] = vs[0]
			}
		}
		return m
	}
	return move(p.Previous), move(p.Next)
}

// pageBar renders the paging controls of a paged list response: the item count, the
// Previous/Next buttons and Fetch all pages; for pages gathered by the latter, what they hold.
func (r *responsePanel) pageBar(ex *Exchange, root *jsonNode) app.UI {
	pg := r.Op.Pagination
	if ex.Pages > 0 {
		r.prev, r.next = nil, nil
		items := 0
		if n := resultsNode(pg, root); n != nil {
			items = len(n.children)
		}
		summary := ui.Plural(items, "item", "items") + " from " + ui.Plural(ex.Pages, "page", "pages")
		switch {
		case ex.Note != "" && ex.FromShown: // stopped early (the note says why): not "to the end"
			summary += ", starting at the page shown"
		case ex.FromShown:
			summary += ", from the page shown to the end"
		}
		return app.Div().Class("page-bar").Body(app.Span().ID("page-summary").Class("muted").Text(summary))
	}
	prev, next := pageMovesOf(pg, root, ex.Headers)
	var count, items string
	if pg != nil && pg.Count != "" && root != nil {
		if n := root.find(pg.Count); n != nil && n.kind == 'n' {
			count = n.text + " in all"
		}
	}
	if n := resultsNode(pg, root); n != nil && n.kind == 'a' {
		items = ui.Plural(len(n.children), "item", "items") + " on this page"
	}
	if prev == nil && next == nil && items == "" {
		return nil
	}
	r.prev, r.next = prev, next
	return app.Div().Class("page-bar").Body(
		app.Span().ID("page-summary").Class("muted").Text(joinNonEmpty(items, count)),
		app.Span().Class("spacer"),
		app.Button().ID("page-prev").Type("button").Class("btn btn-small").Disabled(prev == nil).
			DataSet("dir", "prev").Text("← Previous page").OnClick(r.onPage),
		app.Button().ID("page-next").Type("button").Class("btn btn-small").Disabled(next == nil).
			DataSet("dir", "next").Text("Next page →").OnClick(r.onPage),
		app.Button().ID("page-all").Type("button").Class("btn btn-small").Disabled(next == nil || r.Sending).
			Title("Follow the next links from this page (in the body or the Link header) to the end of the list and show every item in one list").
			Text("Fetch all pages").OnClick(r.onFetchAll),
	)
}

func (r *responsePanel) onFetchAll(ctx app.Context, e app.Event) { ctx.NewAction(fetchAllAction) }

func (r *responsePanel) onPage(ctx app.Context, e app.Event) {
	m := r.next
	if ctx.JSSrc().Get("dataset").Get("dir").String() == "prev" {
		m = r.prev
	}
	if m != nil {
		ctx.NewActionWithValue(PageAction, *m)
	}
}

// applyPage changes the form's query parameters as a page move says.
func (p *operationPage) applyPage(m PageMove) { m.apply(p.Op, &p.State) }

// apply changes a form state's query parameters as the move says.
func (m PageMove) apply(op *catalog.Operation, st *request.State) {
	for i := range op.Parameters {
		prm := &op.Parameters[i]
		if prm.In != "query" {
			continue
		}
		key := "query:" + prm.Name
		if v, ok := m.Query[prm.Name]; ok {
			st.Params[key] = []string{v}
		} else if m.Exact {
			delete(st.Params, key)
		}
	}
}

// key identifies the page a move leads to, to notice a list that loops.
func (m PageMove) key() string {
	keys := make([]string, 0, len(m.Query))
	for k, v := range m.Query {
		keys = append(keys, url.QueryEscape(k)+"="+url.QueryEscape(v))
	}
	slices.Sort(keys)
	return strings.Join(keys, "&")
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
