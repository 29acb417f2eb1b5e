package app

import (
	htmlpkg "html"
	"slices"
	"sort"
	"strconv"
	"strings"

	"loupe/app/catalog"
	"loupe/app/ui"
)

// opList is the sidebar's list of every API and its operations, grouped by tag, as rows:
// what the filter leaves of them (shown), where each shown row sits (top) and the HTML of
// any run of them. It does no I/O: the browser keeps in the page only the rows near the
// list's viewport (opWindow), the server writes them all (markup).
type opList struct {
	cat     *catalog.Catalog
	base    string        // the site's sub-path (ui.BasePath), before every link
	rows    []sideRow     // every row, in order
	links   []ui.SideLink // the rows features add (ui.SideLinks), by sideRow.link
	ops     []int32       // the rows the filter searches, operations and links (indexes in rows)
	titles  []int32       // the row of each API's title, by API
	shown   []int32       // the rows the filter leaves, in order (indexes in rows)
	top     []float64     // top[i] is where shown[i] starts, in CSS px; top[len(shown)] is the height
	matched []int32       // the rows of the operations the filter leaves
	words   []string      // the filter's words, lower case

	// height is the height of a row of each kind and gap the space between two APIs, in CSS
	// px: estimates of what web/loupe.css gives them until the browser has measured them.
	// An operation's label stays on one line, so all of them are as high; an API's title or
	// a tag's name may wrap, so each of those has its own height once measured (sized, by row).
	height [rowKinds]float64
	gap    float64
	sized  map[int32]float64
}

// rowKind is what a row of the list shows.
type rowKind uint8

const (
	rowAPI       rowKind = iota // an API's title and operation count: a link to its page
	rowWorkspace                // the page a feature adds beside the API's operations (ui.APIPage: the script workspace): a link
	rowTag                      // a tag's name, above its operations
	rowOp                       // an operation: a link to its page
	rowLink                     // a page a feature adds under the API (ui.SideLink: a walkthrough): a link
	rowKinds
)

// sideRow is one row of the list.
type sideRow struct {
	kind rowKind
	api  int32  // index in Catalog.APIs
	op   int32  // rowOp: index in API.Operations
	tag  string // rowTag: the tag's name
	text string // rowOp, rowLink: what the filter searches (opText)
	link int32  // rowLink: index in opList.links
}

// wholeList is the most rows the browser keeps in the page all at once: a list as short
// as the built-in catalog's is whole, so a find in the page sees every operation.
const wholeList = 300

// newOpList lists the catalog's APIs (none for a nil catalog), unfiltered; base is the
// site's sub-path (ui.BasePath).
func newOpList(cat *catalog.Catalog, base string) *opList {
	l := &opList{cat: cat, base: base, height: [rowKinds]float64{30.6875, 24, 22.140625, 24, 24}, gap: 5.59375, sized: map[int32]float64{}}
	if cat != nil {
		for i := range cat.APIs {
			l.addAPI(int32(i), &cat.APIs[i])
		}
	}
	l.filter("")
	return l
}

// addAPI adds the rows of one API: its title, the workspace (script), the pages features add
// (its walkthroughs), then its operations grouped by their first tag, in the order of the
// document's tags; a group's name shows when the API has more than one group.
func (l *opList) addAPI(i int32, a *catalog.API) {
	l.titles = append(l.titles, int32(len(l.rows)))
	l.rows = append(l.rows, sideRow{kind: rowAPI, api: i})
	if ui.APIPageOf(a.Slug) != nil {
		l.rows = append(l.rows, sideRow{kind: rowWorkspace, api: i})
	}
	for _, s := range ui.SideLinksOf(l.cat, a) {
		l.ops = append(l.ops, int32(len(l.rows)))
		l.rows = append(l.rows, sideRow{kind: rowLink, api: i, link: int32(len(l.links)),
			text: strings.ToLower(strings.Join([]string{a.Slug, a.Title, s.Label, s.Badge, s.Search}, " "))})
		l.links = append(l.links, s)
	}
	type group struct {
		name string
		ops  []int32
	}
	var groups []*group
	byName := map[string]*group{}
	for _, t := range a.Tags {
		g := &group{name: t.Name}
		groups = append(groups, g)
		byName[t.Name] = g
	}
	for j := range a.Operations {
		tag := ""
		if len(a.Operations[j].Tags) > 0 {
			tag = a.Operations[j].Tags[0]
		}
		g := byName[tag]
		if g == nil {
			g = &group{name: tag}
			groups = append(groups, g)
			byName[tag] = g
		}
		g.ops = append(g.ops, int32(j))
	}
	for _, g := range groups {
		if len(g.ops) == 0 {
			continue
		}
		if g.name != "" && len(groups) > 1 {
			l.rows = append(l.rows, sideRow{kind: rowTag, api: i, tag: g.name})
		}
		for _, j := range g.ops {
			l.ops = append(l.ops, int32(len(l.rows)))
			l.rows = append(l.rows, sideRow{kind: rowOp, api: i, op: j, text: opText(a, &a.Operations[j])})
		}
	}
}

// filter shows the operations whose text (opText) contains every word of filter, under
// their API's title; without words it shows every row. It reports whether the shown rows
// changed. A filter that narrows the last one (a word typed on) searches only what that one
// left.
func (l *opList) filter(filter string) bool {
	words := strings.Fields(strings.ToLower(filter))
	if l.shown != nil && strings.Join(words, " ") == strings.Join(l.words, " ") {
		return false
	}
	src := l.ops
	if len(words) > 0 && len(l.words) > 0 && narrows(l.words, words) {
		src = l.matched // filtered in place below: each row is read before it is written
	}
	l.matched = l.matched[:0]
	for _, r := range src {
		if containsAll(l.rows[r].text, words) {
			l.matched = append(l.matched, r)
		}
	}
	l.words, l.shown = words, l.shown[:0]
	if len(words) == 0 {
		for i := range l.rows {
			l.shown = append(l.shown, int32(i))
		}
	} else {
		api := int32(-1)
		for _, r := range l.matched {
			if a := l.rows[r].api; a != api {
				l.shown, api = append(l.shown, l.titles[a]), a
			}
			l.shown = append(l.shown, r)
		}
	}
	l.layout()
	return true
}

// narrows reports whether every row that has all the words next has all the words last: each
// word of last is in a word of next.
func narrows(last, next []string) bool {
	for _, w := range last {
		if !slices.ContainsFunc(next, func(n string) bool { return strings.Contains(n, w) }) {
			return false
		}
	}
	return true
}

// layout places the shown rows one under the other, with gap between two APIs.
func (l *opList) layout() {
	l.top = l.top[:0]
	y := 0.0
	for i, s := range l.shown {
		k := l.rows[s].kind
		if k == rowAPI && i > 0 {
			y += l.gap
		}
		l.top = append(l.top, y)
		if h, ok := l.sized[s]; ok {
			y += h
		} else {
			y += l.height[k]
		}
	}
	l.top = append(l.top, y)
}

// span returns the shown rows [lo, hi) to keep in the page for a viewport of height px
// scrolled by at px: those in sight and those within over px above and below it; every row
// of a list of at most wholeList rows.
func (l *opList) span(at, height, over float64) (lo, hi int) {
	n := len(l.shown)
	if n <= wholeList {
		return 0, n
	}
	lo = sort.Search(n, func(i int) bool { return l.top[i+1] > at-over })
	hi = sort.Search(n, func(i int) bool { return l.top[i] >= at+height+over })
	return lo, max(hi, lo)
}

// covers reports whether the rows [lo, hi) reach over px beyond a viewport of height px
// scrolled by at px.
func (l *opList) covers(lo, hi int, at, height, over float64) bool {
	if len(l.shown) <= wholeList {
		return lo == 0 && hi == len(l.shown)
	}
	return (lo == 0 || l.top[lo] <= at-over) && (hi == len(l.shown) || l.top[hi] >= at+height+over)
}

// find returns the shown index of the row of the page current names ("<api>" or
// "<api>/<operationId>"), or -1.
func (l *opList) find(current string) int {
	for i, s := range l.shown {
		if l.key(l.rows[s]) == current {
			return i
		}
	}
	return -1
}

// key names the page a row links to, as current does; empty for a tag.
func (l *opList) key(r sideRow) string {
	a := &l.cat.APIs[r.api]
	switch r.kind {
	case rowAPI:
		return a.Slug
	case rowWorkspace:
		return a.Slug + "/" + ui.APIPageOf(a.Slug).ID
	case rowOp:
		return a.Slug + "/" + a.Operations[r.op].ID
	case rowLink:
		return strings.TrimPrefix(l.links[r.link].Path, "/")
	}
	return ""
}

// markup is the whole list, every shown row, as the server writes it; current names the
// current page.
func (l *opList) markup(current string) string {
	var b strings.Builder
	b.WriteString(`<ul class="api-list" id="side-list">`)
	l.writeGroups(&b, 0, len(l.shown), current)
	b.WriteString(`</ul>`)
	return b.String()
}

// writeGroups writes the shown rows [lo, hi) as the list's items: one li.api-item per API,
// holding its title (when it is among the rows) and a list of its other rows.
func (l *opList) writeGroups(b *strings.Builder, lo, hi int, current string) {
	for i := lo; i < hi; {
		r := l.rows[l.shown[i]]
		a := &l.cat.APIs[r.api]
		b.WriteString(`<li class="api-item" data-api="` + htmlpkg.EscapeString(a.Slug) + `">`)
		if r.kind == rowAPI {
			l.writeRow(b, i, current)
			i++
		}
		end := l.apiEnd(i, hi, r.api)
		b.WriteString(`<ul class="op-list">`)
		l.writeRows(b, i, end, current)
		b.WriteString(`</ul></li>`)
		i = end
	}
}

// apiEnd returns the end of the run of shown rows from i (before hi) that belong to API api
// and are not its title.
func (l *opList) apiEnd(i, hi int, api int32) int {
	for i < hi {
		if r := l.rows[l.shown[i]]; r.api != api || r.kind == rowAPI {
			break
		}
		i++
	}
	return i
}

// writeRows writes the shown rows [lo, hi), none an API's title, as items of its list.
func (l *opList) writeRows(b *strings.Builder, lo, hi int, current string) {
	for i := lo; i < hi; i++ {
		l.writeRow(b, i, current)
	}
}

// writeRow writes shown row i: an API's title is its a.api-link, any other row its li.
func (l *opList) writeRow(b *strings.Builder, i int, current string) {
	r := l.rows[l.shown[i]]
	a := &l.cat.APIs[r.api]
	here := ""
	if current != "" && l.key(r) == current {
		here = ` aria-current="page"`
	}
	switch r.kind {
	case rowAPI:
		b.WriteString(`<a class="api-link" href="` + htmlpkg.EscapeString(l.base+"/"+a.Slug) + `" data-api="` + htmlpkg.EscapeString(a.Slug) + `"` + here + `>` +
			`<span class="api-title">` + htmlpkg.EscapeString(a.Title) + `</span><span class="api-count">` + strconv.Itoa(len(a.Operations)) + `</span></a>`)
	case rowWorkspace:
		p := ui.APIPageOf(a.Slug)
		b.WriteString(`<li><a class="op-link ws-link" href="` + htmlpkg.EscapeString(l.base+"/"+a.Slug+"/"+p.ID) + `" data-op="` + htmlpkg.EscapeString(a.Slug+"/"+p.ID) + `"` + here + `>` +
			`<span class="method ws-badge" aria-hidden="true">▶</span><span class="op-label">` + htmlpkg.EscapeString(p.Label) + `</span></a></li>`)
	case rowLink:
		s := l.links[r.link]
		b.WriteString(`<li><a class="op-link side-link" href="` + htmlpkg.EscapeString(l.base+s.Path) + `" data-op="` + htmlpkg.EscapeString(l.key(r)) + `"` +
			` title="` + htmlpkg.EscapeString(s.Label) + `"` + here + `>` +
			`<span class="method side-badge">` + htmlpkg.EscapeString(s.Badge) + `</span><span class="op-label">` + htmlpkg.EscapeString(s.Label) + `</span></a></li>`)
	case rowTag:
		b.WriteString(`<li class="tag-name">` + htmlpkg.EscapeString(r.tag) + `</li>`)
	case rowOp:
		op := &a.Operations[r.op]
		label := op.Summary
		if label == "" {
			label = op.ID
		}
		cls := "op-link"
		if op.Deprecated {
			cls += " deprecated"
		}
		b.WriteString(`<li><a class="` + cls + `" href="` + htmlpkg.EscapeString(l.base+"/"+a.Slug+"/"+op.ID) + `" data-op="` + htmlpkg.EscapeString(a.Slug+"/"+op.ID) + `"` +
			` title="` + htmlpkg.EscapeString(op.Method+" "+op.Path+" — "+op.ID) + `"` + here + `>` +
			`<span class="method method-` + htmlpkg.EscapeString(strings.ToLower(op.Method)) + `">` + htmlpkg.EscapeString(op.Method) + `</span>` +
			`<span class="op-label">` + htmlpkg.EscapeString(label) + `</span></a></li>`)
	}
}

// opText is what the filter searches for an operation, lower case: its API's slug and title,
// its operationId, summary, path, method and tags.
func opText(a *catalog.API, op *catalog.Operation) string {
	return strings.ToLower(strings.Join([]string{a.Slug, a.Title, op.ID, op.Summary, op.Path, op.Method, strings.Join(op.Tags, " ")}, " "))
}

// cssString escapes s for a double-quoted CSS string.
func cssString(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\` + strconv.FormatInt(int64(r), 16) + " ")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
