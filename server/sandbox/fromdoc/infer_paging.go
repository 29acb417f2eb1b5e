package fromdoc

import (
	"slices"
)

// The query parameters of each paging role, their names normalized (realistic.go).
var (
	limitNames  = []string{"limit", "perpage", "pagesize", "size", "maxresults", "count", "top", "first", "take", "resultsperpage", "max", "pagelimit", "numberofresults"}
	offsetNames = []string{"offset", "skip", "start", "startindex", "from"}
	pageNames   = []string{"page", "pagenumber", "pageno", "pageindex", "pagenum"}
	cursorNames = []string{"cursor", "after", "startingafter", "pagetoken", "nexttoken", "continuation", "continuationtoken", "marker", "pagecursor", "nextpagetoken", "starttoken"}
	nextNames   = []string{"nextpagetoken", "nextcursor", "next", "nextpage", "nextlink", "nexttoken", "continuationtoken", "cursor", "after", "nextpageurl", "nexturl", "endcursor"}
	totalNames  = []string{"total", "totalcount", "count", "totalresults", "totalitems", "totalsize", "totalrecords", "totalelements"}
)

// paging finds how the list operation pages (its query parameters by role, the answer's
// next-page and total properties) and which of its query parameters filter by an item
// property.
func (d *Document) paging(res *Resource, o *operation) (*Paging, []string) {
	p := &Paging{Default: 20}
	var filters []string
	g := newGen(d.root, 0, Response, Choices{})
	itemProps := map[string]bool{}
	if f, _, err := g.flatten(res.item.raw, res.item.at); err == nil {
		for k := range obj(f["properties"]) {
			itemProps[k] = true
		}
	}
	for _, prm := range d.queryParams(o) {
		name := str(prm, "name")
		n := normalize(name)
		switch {
		case p.Limit == "" && slices.Contains(limitNames, n):
			p.Limit = name
			ps, _, _ := g.flatten(prm["schema"], "")
			if v, ok := num(ps, "default"); ok && v > 0 {
				p.Default = int(v)
			}
			if v, ok := num(ps, "maximum"); ok && v > 0 && int(v) < p.Default {
				p.Default = int(v)
			}
		case p.Offset == "" && slices.Contains(offsetNames, n):
			p.Offset = name
		case p.Page == "" && slices.Contains(pageNames, n):
			p.Page = name
		case p.Cursor == "" && slices.Contains(cursorNames, n):
			p.Cursor = name
		case itemProps[name]:
			filters = append(filters, name)
		}
	}
	switch {
	case p.Cursor != "":
		p.Style = "cursor"
	case p.Page != "":
		p.Style = "page"
	case p.Offset != "" || p.Limit != "":
		p.Style = "offset"
	default:
		return nil, filters
	}
	code, media, _ := successJSON(o)
	raw, _, _ := d.bodySchema(o, code, media)
	if f, _, err := g.flatten(raw, ""); err == nil {
		props := obj(f["properties"])
		for _, k := range keysOf(props) {
			pf, _, err := g.flatten(props[k], "")
			if err != nil {
				continue
			}
			kind := impliedKind(pf)
			n := normalize(k)
			if p.Next == "" && slices.Contains(nextNames, n) && kind == "string" {
				p.Next = k
			}
			if p.Total == "" && slices.Contains(totalNames, n) && (kind == "integer" || kind == "number") {
				p.Total = k
			}
		}
	}
	return p, filters
}

// queryParams returns the operation's query parameters (its own, then its path's), as plain
// values.
func (d *Document) queryParams(o *operation) []map[string]any {
	var out []map[string]any
	seen := map[string]bool{}
	for _, list := range [][]any{asList(o.raw["parameters"]), asList(o.rawItem["parameters"])} {
		for _, p := range list {
			pm, _, err := deref(d.root, p)
			m := obj(pm)
			if err != nil || str(m, "in") != "query" || seen[str(m, "name")] {
				continue
			}
			seen[str(m, "name")] = true
			out = append(out, m)
		}
	}
	return out
}
