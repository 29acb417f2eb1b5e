package app

import (
	"fmt"
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/app/internal/apptest"
	"loupe/app/script"
)

// listFixture is two APIs: demo (one operation, no tags) and store (five operations under two
// tags, one without a tag, and a title that needs escaping).
func listFixture() *catalog.Catalog {
	return &catalog.Catalog{APIs: []catalog.API{
		*apptest.FixtureAPI,
		{Slug: "store", Title: `Store <"&">`, Tags: []catalog.Tag{{Name: "pets"}, {Name: "orders"}, {Name: "unused"}}, Operations: []catalog.Operation{
			{ID: "orders.get", Method: "GET", Path: "/orders/{id}", Summary: "Get an order", Tags: []string{"orders"}},
			{ID: "pets.list", Method: "GET", Path: "/pets", Summary: "List pets", Tags: []string{"pets"}},
			{ID: "pets.add", Method: "POST", Path: "/pets", Summary: `Add a <pet> "now"`, Tags: []string{"pets"}, Deprecated: true},
			{ID: "health", Method: "GET", Path: "/health"},
			{ID: "orders.delete", Method: "DELETE", Path: "/orders/{id}", Summary: "Cancel an order", Tags: []string{"orders"}},
		}},
	}}
}

// keys names the list's shown rows: an API by its slug, a tag as #name, an operation as
// slug/id.
func keys(l *opList) string {
	var out []string
	for _, s := range l.shown {
		r := l.rows[s]
		if r.kind == rowTag {
			out = append(out, "#"+r.tag)
		} else {
			out = append(out, l.key(r))
		}
	}
	return strings.Join(out, " ")
}

func TestOpListFilter(t *testing.T) {
	l := newOpList(listFixture(), "")
	tests := []struct {
		filter  string
		want    string // the shown rows (keys)
		matches int
	}{
		{"", "demo demo/things.list store #pets store/pets.list store/pets.add #orders store/orders.get store/orders.delete store/health", 6},
		{"PETS", "store store/pets.list store/pets.add", 2},
		{"pets a", "store store/pets.add", 1}, // narrows the last: searches what it left
		{"pets", "store store/pets.list store/pets.add", 2},
		{"  get   order ", "store store/orders.get", 1},
		{"demo", "demo demo/things.list", 1}, // an API's slug matches its operations
		{"post", "demo demo/things.list store store/pets.add", 2},
		{"/orders/{id} delete", "store store/orders.delete", 1},
		{"nothing-like-this", "", 0},
		{"", "demo demo/things.list store #pets store/pets.list store/pets.add #orders store/orders.get store/orders.delete store/health", 6},
	}
	for _, tt := range tests {
		l.filter(tt.filter)
		if got := keys(l); got != tt.want || len(l.matched) != tt.matches {
			t.Errorf("filter %q: got %q (%d operations); want %q (%d)", tt.filter, got, len(l.matched), tt.want, tt.matches)
		}
		if len(l.top) != len(l.shown)+1 {
			t.Errorf("filter %q: %d places for %d rows", tt.filter, len(l.top), len(l.shown))
		}
	}
	if l.filter("") {
		t.Errorf("the same filter again reports a change")
	}
}

func TestOpListLayout(t *testing.T) {
	l := newOpList(listFixture(), "")
	l.height = [rowKinds]float64{rowAPI: 30, rowWorkspace: 24, rowTag: 20, rowOp: 24}
	l.gap = 5
	l.layout()
	// demo, things.list | gap | store, #pets, pets.list, pets.add, #orders, orders.get, orders.delete, health
	want := []float64{0, 30, 59, 89, 109, 133, 157, 177, 201, 225, 249}
	if got := fmt.Sprint(l.top); got != fmt.Sprint(want) {
		t.Errorf("top = %v; want %v", got, want)
	}
	if got := l.find("store/pets.add"); got != 5 {
		t.Errorf("find(store/pets.add) = %d; want 5", got)
	}
	if got := l.find("store/none"); got != -1 {
		t.Errorf("find(store/none) = %d; want -1", got)
	}
}

// bigList is a catalog of n operations under one API, each row 24 px high.
func bigList(n int) *opList {
	a := catalog.API{Slug: "big", Title: "Big"}
	for i := range n {
		a.Operations = append(a.Operations, catalog.Operation{ID: fmt.Sprintf("op%d", i), Method: "GET", Path: fmt.Sprintf("/op/%d", i)})
	}
	l := newOpList(&catalog.Catalog{APIs: []catalog.API{a}}, "")
	l.height = [rowKinds]float64{24, 24, 24, 24}
	l.layout()
	return l
}

func TestOpListSpan(t *testing.T) {
	if lo, hi := bigList(100).span(1000, 200, 0); lo != 0 || hi != 101 {
		t.Errorf("a short list: span = [%d, %d); want all of it, [0, 101)", lo, hi)
	}
	l := bigList(2000) // 2,001 rows, 48,024 px
	tests := []struct {
		at, height float64
		lo, hi     int
	}{
		{0, 600, 0, 50},                // in sight to 600, and 600 more
		{24000, 600, 975, 1050},        // 23,400 to 25,200
		{24000, 100, 987, 1017},        // at least 300 px beyond: 23,700 to 24,400
		{48024 - 600, 600, 1951, 2001}, // the end
	}
	for _, tt := range tests {
		over := margin(tt.height)
		lo, hi := l.span(tt.at, tt.height, over)
		if lo != tt.lo || hi != tt.hi {
			t.Errorf("span(%v, %v) = [%d, %d); want [%d, %d)", tt.at, tt.height, lo, hi, tt.lo, tt.hi)
		}
		if !l.covers(lo, hi, tt.at, tt.height, over/2) {
			t.Errorf("span(%v, %v) does not cover its own viewport", tt.at, tt.height)
		}
		// Scrolled by a quarter of the margin: still covered. By twice the margin: not.
		if !l.covers(lo, hi, tt.at+over/4, tt.height, over/2) {
			t.Errorf("[%d, %d) stops covering after a quarter of the margin", lo, hi)
		}
		if l.covers(lo, hi, tt.at+2*over, tt.height, over/2) && hi < len(l.shown) {
			t.Errorf("[%d, %d) still covers twice the margin further", lo, hi)
		}
	}
}

func TestOpListMarkup(t *testing.T) {
	l := newOpList(listFixture(), "/sub")
	got := l.markup("store/pets.add")
	for _, want := range []string{
		`<ul class="api-list" id="side-list"><li class="api-item" data-api="demo"><a class="api-link" href="/sub/demo" data-api="demo">`,
		`<span class="api-title">Store &lt;&#34;&amp;&#34;&gt;</span><span class="api-count">5</span>`,
		`<li class="tag-name">pets</li>`,
		`<li><a class="op-link deprecated" href="/sub/store/pets.add" data-op="store/pets.add" title="POST /pets — pets.add" aria-current="page">` +
			`<span class="method method-post">POST</span><span class="op-label">Add a &lt;pet&gt; &#34;now&#34;</span></a></li>`,
		`<span class="op-label">health</span>`, // no summary: the operationId
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the list lacks %s", want)
		}
	}
	if n := strings.Count(got, `aria-current`); n != 1 {
		t.Errorf("%d rows are current; want 1", n)
	}
	// The rows of any run, from the middle of an API, as the page holds them.
	var b strings.Builder
	l.writeGroups(&b, 4, 10, "")
	if got, want := strings.Count(b.String(), `<li class="api-item" data-api="store"><ul class="op-list">`), 1; got != want {
		t.Errorf("a run from the middle of store: %d items without a title; want %d\n%s", got, want, b.String())
	}
	ws := newOpList(&catalog.Catalog{APIs: []catalog.API{{Slug: "script", Title: "Apps Script"}}}, "")
	if got := ws.markup("script/" + script.WorkspaceOpID); !strings.Contains(got, `class="op-link ws-link" href="/script/`+script.WorkspaceOpID+`" data-op="script/`+script.WorkspaceOpID+`" aria-current="page"`) {
		t.Errorf("the script API lacks its workspace link: %s", got)
	}
}
