package op

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/app/fetch"
)

var drfPages = &catalog.Pagination{Style: "page-number", Results: "results", Next: "next", Previous: "previous", Count: "count"}

// drfPage is page n of a DRF-style list of total items, size per page.
func drfPage(n, size, total int) []byte {
	var items []string
	for i := (n-1)*size + 1; i <= min(n*size, total); i++ {
		items = append(items, fmt.Sprintf(`{"id":%d}`, i))
	}
	next := "null"
	if n*size < total {
		next = fmt.Sprintf(`"http://h/items/?page=%d"`, n+1)
	}
	return fmt.Appendf(nil, `{"count":%d,"next":%s,"previous":null,"results":[%s]}`, total, next, strings.Join(items, ","))
}

func TestPageGathererWalksToTheEnd(t *testing.T) {
	g := newPageGatherer(drfPages)
	for n := 1; ; n++ {
		next, full, err := g.add(drfPage(n, 10, 25), nil)
		if err != nil || full != "" {
			t.Fatalf("page %d: %v %q", n, err, full)
		}
		if next == nil {
			if n != 3 {
				t.Fatalf("the end came after page %d; want 3", n)
			}
			break
		}
		if got := next.Query["page"]; got != fmt.Sprint(n+1) {
			t.Fatalf("after page %d: next page %q; want %d", n, got, n+1)
		}
	}
	if got, want := g.progress(), "3 pages · 25 items of 25"; got != want {
		t.Errorf("progress: got %q; want %q", got, want)
	}
	var out struct {
		Pages   int               `json:"pages"`
		Count   int               `json:"count"`
		Results []json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(g.body(), &out); err != nil {
		t.Fatalf("body %s: %v", g.body(), err)
	}
	if out.Pages != 3 || out.Count != 25 || len(out.Results) != 25 || string(out.Results[24]) != `{"id":25}` {
		t.Errorf("body: got %s; want 3 pages, count 25 and items 1 to 25 in order", g.body())
	}
}

func TestPageGathererStops(t *testing.T) {
	loop := []byte(`{"next":"http://h/items/?cursor=A","results":[1]}`)
	tests := []struct {
		name     string
		pages    [][]byte
		wantFull string
		wantErr  string
	}{
		{"a list that loops", [][]byte{loop, loop}, "links back to a page already fetched", ""},
		{"not JSON", [][]byte{[]byte("<html>")}, "", "page 1 is not JSON"},
		{"no results", [][]byte{[]byte(`{"detail":"Invalid page."}`)}, "", "page 1: no results in the answer"},
		{"results not a list", [][]byte{[]byte(`{"results":{}}`)}, "", "page 1: results is not a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newPageGatherer(drfPages)
			var full string
			var err error
			for _, p := range tt.pages {
				if _, full, err = g.add(p, nil); err != nil || full != "" {
					break
				}
			}
			if !strings.Contains(full, tt.wantFull) || (tt.wantFull == "") != (full == "") {
				t.Errorf("stop: got %q; want %q", full, tt.wantFull)
			}
			if got := fmt.Sprint(err); (tt.wantErr == "") != (err == nil) || !strings.Contains(got, tt.wantErr) {
				t.Errorf("error: got %v; want %q", err, tt.wantErr)
			}
		})
	}
}

func TestPageGathererStopsAtItsPageLimit(t *testing.T) {
	g := newPageGatherer(drfPages)
	var full string
	n := 0
	for n = 1; n <= gatherMaxPages+5; n++ {
		next, f, err := g.add(drfPage(n, 1, 1000), nil)
		if err != nil {
			t.Fatal(err)
		}
		if next == nil {
			full = f
			break
		}
	}
	if n != gatherMaxPages || !strings.Contains(full, "the list goes on") {
		t.Errorf("stopped after page %d with %q; want page %d and a note that the list goes on", n, full, gatherMaxPages)
	}
}

// TestPageGathererKeepsTheListsPath gathers lists whose items are not under "results": the
// gathered body holds them where the paged viewer looks for one page's items.
func TestPageGathererKeepsTheListsPath(t *testing.T) {
	tests := []struct {
		name, results, page1, page2 string
	}{
		{"items (reports activities.list)", "items", `{"items":[{"id":1}],"nextPageToken":"t2"}`, `{"items":[{"id":2}]}`},
		{"processes (script)", "processes", `{"processes":[{"id":1}],"nextPageToken":"t2"}`, `{"processes":[{"id":2}]}`},
		{"a nested list", "data.items", `{"data":{"items":[{"id":1}]},"nextPageToken":"t2"}`, `{"data":{"items":[{"id":2}]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newPageGatherer(&catalog.Pagination{Style: "page-token", Results: tt.results, Next: "nextPageToken", TokenParam: "pageToken"})
			for _, page := range []string{tt.page1, tt.page2} {
				if _, _, err := g.add([]byte(page), nil); err != nil {
					t.Fatalf("add %s: %v", page, err)
				}
			}
			root, ok := parseJSON(g.body())
			if !ok {
				t.Fatalf("body %s is not JSON", g.body())
			}
			items := root.find(tt.results)
			if items == nil || len(items.children) != 2 {
				t.Fatalf("body %s: got no list of 2 items at %s", g.body(), tt.results)
			}
			if got := items.children[1].find("id"); got == nil || got.text != "2" {
				t.Errorf("body %s: the second item is not page 2's", g.body())
			}
		})
	}
}

// linkPage is page n of a list of total items, size per page, whose body is the bare array of
// items and whose links are in a Link header, as server/sandbox/pagination's /link-header/items/.
func linkPage(n, size, total int) ([]byte, []fetch.Header) {
	var items []string
	for i := (n-1)*size + 1; i <= min(n*size, total); i++ {
		items = append(items, fmt.Sprintf(`{"id":%d}`, i))
	}
	last := (total + size - 1) / size
	links := []string{fmt.Sprintf(`<http://h/link-header/items/?page_size=%d>; rel="first"`, size)}
	if n > 1 {
		links = append(links, fmt.Sprintf(`<http://h/link-header/items/?page=%d&page_size=%d>; rel="prev"`, n-1, size))
	}
	if n < last {
		links = append(links, fmt.Sprintf(`<http://h/link-header/items/?page=%d&page_size=%d>; rel="next"`, n+1, size),
			fmt.Sprintf(`<http://h/link-header/items/?page=%d&page_size=%d>; rel="last"`, last, size))
	}
	headers := []fetch.Header{{Name: "Content-Type", Value: "application/json"}, {Name: "Link", Value: strings.Join(links, ", ")}}
	return []byte("[" + strings.Join(items, ",") + "]"), headers
}

// TestPageGathererFollowsALinkHeader gathers a list whose next page is the Link header's
// rel="next": every item once, in order, as one bare array as the list's pages are.
func TestPageGathererFollowsALinkHeader(t *testing.T) {
	pg := &catalog.Pagination{Style: "page-number", Links: "header", Next: "next", Previous: "prev"}
	g := newPageGatherer(pg)
	for n := 1; ; n++ {
		body, headers := linkPage(n, 10, 95)
		next, full, err := g.add(body, headers)
		if err != nil || full != "" {
			t.Fatalf("page %d: %v %q", n, err, full)
		}
		if next == nil {
			if n != 10 {
				t.Fatalf("the end came after page %d; want 10", n)
			}
			break
		}
		if got, want := next.key(), fmt.Sprintf("page=%d&page_size=10", n+1); got != want || !next.Exact {
			t.Fatalf("after page %d: next %q (exact %v); want %q, exact", n, got, next.Exact, want)
		}
	}
	if got, want := g.progress(), "10 pages · 95 items"; got != want {
		t.Errorf("progress: got %q; want %q", got, want)
	}
	var items []struct{ ID int }
	if err := json.Unmarshal(g.body(), &items); err != nil {
		t.Fatalf("body %s: %v", g.body(), err)
	}
	for i, it := range items {
		if it.ID != i+1 {
			t.Fatalf("item %d has id %d; want %d (every item once, in order)", i, it.ID, i+1)
		}
	}
	if len(items) != 95 {
		t.Errorf("got %d items; want 95", len(items))
	}
}

func TestPageGathererLinkHeaderStops(t *testing.T) {
	pg := &catalog.Pagination{Style: "page-number", Links: "header", Next: "next", Previous: "prev"}
	loop := []fetch.Header{{Name: "Link", Value: `<http://h/link-header/items/?page=2>; rel="next"`}}
	tests := []struct {
		name     string
		bodies   []string
		headers  []fetch.Header
		wantNext bool
		wantFull string
		wantErr  string
	}{
		{"no Link header is the last page", []string{`[{"id":1}]`}, nil, false, "", ""},
		{"a Link header without next is the last page", []string{`[{"id":1}]`}, []fetch.Header{{Name: "Link", Value: `<http://h/?page=1>; rel="prev"`}}, false, "", ""},
		{"a list that loops", []string{`[1]`, `[2]`}, loop, false, "links back to a page already fetched", ""},
		{"a body that is not a list", []string{`{"detail":"Invalid page."}`}, loop, false, "", "page 1: the body is not a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newPageGatherer(pg)
			var next *PageMove
			var full string
			var err error
			for _, b := range tt.bodies {
				if next, full, err = g.add([]byte(b), tt.headers); err != nil || full != "" {
					break
				}
			}
			if (next != nil) != tt.wantNext {
				t.Errorf("next: got %+v; want next %v", next, tt.wantNext)
			}
			if !strings.Contains(full, tt.wantFull) || (tt.wantFull == "") != (full == "") {
				t.Errorf("stop: got %q; want %q", full, tt.wantFull)
			}
			if got := fmt.Sprint(err); (tt.wantErr == "") != (err == nil) || !strings.Contains(got, tt.wantErr) {
				t.Errorf("error: got %v; want %q", err, tt.wantErr)
			}
		})
	}
}
