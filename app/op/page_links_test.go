package op

import (
	"testing"

	"loupe/app/catalog"
	"loupe/app/fetch"
	"loupe/app/request"
)

func TestPageMoves(t *testing.T) {
	drf := &catalog.Pagination{Style: "limit-offset", Results: "results", Next: "next", Previous: "previous", Count: "count"}
	root, _ := parseJSON([]byte(`{"count":30,"next":"http://sandbox/items/?limit=10&offset=20&q=a","previous":null,"results":[1,2]}`))
	prev, next := pageMoves(drf, root)
	if prev != nil || next == nil || !next.Exact || next.Query["offset"] != "20" || next.Query["limit"] != "10" {
		t.Fatalf("prev %v next %+v", prev, next)
	}
	token := &catalog.Pagination{Style: "page-token", Results: "items", Next: "nextPageToken", TokenParam: "pageToken"}
	root, _ = parseJSON([]byte(`{"items":[],"nextPageToken":"abc"}`))
	if _, next := pageMoves(token, root); next == nil || next.Exact || next.Query["pageToken"] != "abc" {
		t.Fatalf("token next %+v", next)
	}

	op := &catalog.Operation{Parameters: []catalog.Parameter{
		{Name: "limit", In: "query"}, {Name: "offset", In: "query"}, {Name: "page", In: "query"}, {Name: "id", In: "path"},
	}}
	p := &operationPage{Op: op, formState: FormState{Op: op, State: request.State{Params: map[string][]string{"query:page": {"3"}, "path:id": {"x"}}}}}
	p.applyPage(*next)
	p.applyPage(PageMove{Query: map[string]string{"limit": "10", "offset": "20"}, Exact: true})
	if got := p.State.Params; got["query:offset"][0] != "20" || got["query:page"] != nil || got["path:id"][0] != "x" {
		t.Fatalf("params after an exact move: %v", got)
	}
}

func TestPageMovesFromLinkHeader(t *testing.T) {
	pg := &catalog.Pagination{Style: "page-number", Links: "header", Next: "next", Previous: "prev"}
	root, _ := parseJSON([]byte(`[{"id":4},{"id":5}]`))
	headers := []fetch.Header{{Name: "Content-Type", Value: "application/json"}, {Name: "link", Value: `<http://s/items/?page_size=3>; rel="first", ` +
		`<http://s/items/?page_size=3>; rel="prev", <http://s/items/?page=3&page_size=3>; rel="next", <http://s/items/?page=32&page_size=3>; rel="last"`}}
	prev, next := pageMovesOf(pg, root, headers)
	if prev == nil || !prev.Exact || prev.Query["page"] != "" || prev.Query["page_size"] != "3" {
		t.Errorf("prev: got %+v; want page_size=3 without page", prev)
	}
	if next == nil || next.Query["page"] != "3" || next.Query["page_size"] != "3" {
		t.Errorf("next: got %+v; want page=3&page_size=3", next)
	}
	if n := resultsNode(pg, root); n == nil || len(n.children) != 2 {
		t.Errorf("results: got %v; want the body's 2 items", n)
	}
	if prev, next := pageMovesOf(pg, root, nil); prev != nil || next != nil {
		t.Errorf("without a Link header: got %+v, %+v; want no moves", prev, next)
	}
	// A body-links list ignores the header.
	body := &catalog.Pagination{Style: "page-number", Results: "results", Next: "next", Previous: "previous"}
	root, _ = parseJSON([]byte(`{"results":[],"next":null,"previous":null}`))
	if prev, next := pageMovesOf(body, root, headers); prev != nil || next != nil {
		t.Errorf("body links: got %+v, %+v; want none", prev, next)
	}
}
