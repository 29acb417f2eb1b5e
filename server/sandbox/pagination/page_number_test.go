package pagination

import (
	"net/http"
	"slices"
	"testing"
)

const base = "http://loupe.test/sandbox/pagination"

func TestPageNumberPages(t *testing.T) {
	h := mounted(Options{})
	u := base + PageNumberPath
	tests := []struct {
		name     string
		query    string
		wantIDs  []int
		wantNext string
		wantPrev string
	}{
		{"first page by default", "", idRange(1, 10), u + "?page=2", "<nil>"},
		{"empty page means 1", "?page=", idRange(1, 10), u + "?page=2", "<nil>"},
		{"page 2 drops page from previous", "?page=2", idRange(11, 20), u + "?page=3", u},
		{"middle page", "?page=5", idRange(41, 50), u + "?page=6", u + "?page=4"},
		{"last page by number", "?page=10", idRange(91, 95), "<nil>", u + "?page=9"},
		{"page=last", "?page=last", idRange(91, 95), "<nil>", u + "?page=9"},
		{"python int forms", "?page=+0_3", idRange(21, 30), u + "?page=4", u + "?page=2"},
		{"last value wins", "?page=1&page=3", idRange(21, 30), u + "?page=4", u + "?page=2"},
		{"page_size", "?page_size=20&page=2", idRange(21, 40), u + "?page=3&page_size=20", u + "?page_size=20"},
		{"page_size clipped to 100", "?page_size=500", idRange(1, 95), "<nil>", "<nil>"},
		{"page_size 0 falls back to 10", "?page_size=0", idRange(1, 10), u + "?page=2&page_size=0", "<nil>"},
		{"page_size not a number falls back", "?page_size=ten&page=last", idRange(91, 95), "<nil>", u + "?page=9&page_size=ten"},
		{"page_size 1, last", "?page_size=1&page=last", []int{95}, "<nil>", u + "?page=94&page_size=1"},
		{"other params kept, sorted", "?zeta=1&alpha=b+c&page=3", idRange(21, 30), u + "?alpha=b+c&page=4&zeta=1", u + "?alpha=b+c&page=2&zeta=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := getPage(t, h, u+tt.query, nil)
			if p.Count == nil || *p.Count != 95 {
				t.Errorf("count: got %v; want 95", p.Count)
			}
			if got := ids(p.Results); !slices.Equal(got, tt.wantIDs) {
				t.Errorf("ids: got %v; want %v", got, tt.wantIDs)
			}
			if got := str(p.Next); got != tt.wantNext {
				t.Errorf("next: got %s; want %s", got, tt.wantNext)
			}
			if got := str(p.Previous); got != tt.wantPrev {
				t.Errorf("previous: got %s; want %s", got, tt.wantPrev)
			}
		})
	}
}

func TestPageNumberInvalidPage(t *testing.T) {
	h := mounted(Options{})
	for _, q := range []string{"page=0", "page=-1", "page=11", "page=abc", "page=2.0", "page=LAST", "page=1_", "page_size=50&page=3", "page=99999999999999999999999"} {
		t.Run(q, func(t *testing.T) {
			w := serve(t, h, http.MethodGet, base+PageNumberPath+"?"+q, nil)
			if w.Code != http.StatusNotFound {
				t.Errorf("status: got %d; want 404", w.Code)
			}
			if got, want := w.Body.String(), `{"detail":"Invalid page."}`; got != want {
				t.Errorf("body: got %s; want %s", got, want)
			}
		})
	}
}

func TestPageNumberEmptyList(t *testing.T) {
	h := mounted(Options{Items: []Item{}})
	for _, q := range []string{"", "?page=1", "?page=last"} {
		w := serve(t, h, http.MethodGet, base+PageNumberPath+q, nil)
		if got, want := w.Body.String(), `{"count":0,"next":null,"previous":null,"results":[]}`; w.Code != 200 || got != want {
			t.Errorf("%q: got %d %s; want 200 %s", q, w.Code, got, want)
		}
	}
	if w := serve(t, h, http.MethodGet, base+PageNumberPath+"?page=2", nil); w.Code != 404 {
		t.Errorf("page 2 of nothing: got %d; want 404", w.Code)
	}
}

func TestPageNumberWalk(t *testing.T) {
	h := mounted(Options{})
	for _, size := range []string{"", "?page_size=7", "?page_size=100", "?page_size=1"} {
		t.Run("size"+size, func(t *testing.T) {
			var forward [][]int
			seen := map[int]int{}
			next := base + PageNumberPath + size
			for next != "" {
				p := getPage(t, h, next, nil)
				forward = append(forward, ids(p.Results))
				for _, id := range ids(p.Results) {
					seen[id]++
				}
				next = ""
				if p.Next != nil {
					next = *p.Next
				}
				if len(forward) > 200 {
					t.Fatal("more than 200 pages")
				}
			}
			if len(seen) != 95 {
				t.Errorf("distinct items: got %d; want 95", len(seen))
			}
			for id, n := range seen {
				if n != 1 {
					t.Errorf("item %d: seen %d times; want once", id, n)
				}
			}
			// Back from the last page with previous.
			p := getPage(t, h, base+PageNumberPath+size+sep(size)+"page=last", nil)
			for i := len(forward) - 1; ; i-- {
				if got := ids(p.Results); !slices.Equal(got, forward[i]) {
					t.Errorf("page %d going back: got %v; want %v", i+1, got, forward[i])
				}
				if p.Previous == nil {
					if i != 0 {
						t.Errorf("previous is null on page %d; want it only on page 1", i+1)
					}
					break
				}
				p = getPage(t, h, *p.Previous, nil)
			}
		})
	}
}

// sep is the separator to append a parameter to a query that may be empty.
func sep(query string) string {
	if query == "" {
		return "?"
	}
	return "&"
}
