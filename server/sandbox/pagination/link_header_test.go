package pagination

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
)

// TestLinkHeader follows the Link header's next links from the first page to
// the last, as a client of such an API does, and checks each page's rels.
func TestLinkHeader(t *testing.T) {
	h := mounted(Options{})
	next := base + LinkHeaderPath + "?page_size=7"
	var got []int
	for n := 1; next != ""; n++ {
		w := serve(t, h, http.MethodGet, next, nil)
		if w.Code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", next, w.Code, w.Body)
		}
		var items []Item
		if err := json.Unmarshal(w.Body.Bytes(), &items); err != nil {
			t.Fatalf("page %d: the body is not a list of items: %v", n, err)
		}
		got = append(got, ids(items)...)
		links := ParseLinkHeader(w.Header().Get("Link"))
		wantRels := map[bool][]string{true: {"first", "prev"}, false: nil}[n > 1]
		if n < 14 {
			wantRels = append(wantRels, "next", "last")
		}
		var rels []string
		for _, rel := range []string{"first", "prev", "next", "last"} {
			if _, ok := links[rel]; ok {
				rels = append(rels, rel)
			}
		}
		if !reflect.DeepEqual(rels, wantRels) {
			t.Errorf("page %d: rels %v (Link %s); want %v", n, rels, w.Header().Get("Link"), wantRels)
		}
		if n == 2 && links["first"] != base+LinkHeaderPath+"?page_size=7" {
			t.Errorf("first: got %s", links["first"])
		}
		if n == 1 && links["last"] != base+LinkHeaderPath+"?page=14&page_size=7" {
			t.Errorf("last: got %s", links["last"])
		}
		next = links["next"]
	}
	if want := idRange(1, 95); !reflect.DeepEqual(got, want) {
		t.Errorf("items: got %v; want 1..95 once each", got)
	}
	if w := serve(t, h, http.MethodGet, base+LinkHeaderPath+"?page=15&page_size=7", nil); w.Code != 404 || w.Header().Get("Link") != "" {
		t.Errorf("page 15: got %d, Link %q; want 404 without links", w.Code, w.Header().Get("Link"))
	}
	if w := serve(t, h, http.MethodPost, base+LinkHeaderPath, nil); w.Code != 405 {
		t.Errorf("POST: got %d; want 405", w.Code)
	}
}

func TestParseLinkHeader(t *testing.T) {
	got := ParseLinkHeader(`<https://a.test/x?page=2>; rel="next", <https://a.test/x>; rel="prev first", junk, <bad; rel=last`)
	want := map[string]string{"next": "https://a.test/x?page=2", "prev": "https://a.test/x", "first": "https://a.test/x"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v; want %v", got, want)
	}
}
