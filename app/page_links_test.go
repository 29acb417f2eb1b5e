package app

import (
	"testing"

	"loupe/app/catalog"
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
	p := &operationPage{Op: op, formState: formState{Op: op, st: request.State{Params: map[string][]string{"query:page": {"3"}, "path:id": {"x"}}}}}
	p.applyPage(*next)
	p.applyPage(pageMove{Query: map[string]string{"limit": "10", "offset": "20"}, Exact: true})
	if got := p.st.Params; got["query:offset"][0] != "20" || got["query:page"] != nil || got["path:id"][0] != "x" {
		t.Fatalf("params after an exact move: %v", got)
	}
}
