package pagination

import (
	"slices"
	"testing"
)

func TestLimitOffset(t *testing.T) {
	h := mounted(Options{})
	u := base + LimitOffsetPath
	tests := []struct {
		name     string
		query    string
		wantIDs  []int
		wantNext string
		wantPrev string
	}{
		{"defaults", "", idRange(1, 10), u + "?limit=10&offset=10", "<nil>"},
		{"documented example", "?limit=5&offset=10", idRange(11, 15), u + "?limit=5&offset=15", u + "?limit=5&offset=5"},
		{"previous drops offset at 0", "?limit=5&offset=5", idRange(6, 10), u + "?limit=5&offset=10", u + "?limit=5"},
		{"previous drops offset below 0", "?limit=10&offset=3", idRange(4, 13), u + "?limit=10&offset=13", u + "?limit=10"},
		{"offset 0 has no previous", "?offset=0", idRange(1, 10), u + "?limit=10&offset=10", "<nil>"},
		{"last window", "?limit=10&offset=90", idRange(91, 95), "<nil>", u + "?limit=10&offset=80"},
		{"window ending exactly at count", "?limit=5&offset=90", idRange(91, 95), "<nil>", u + "?limit=5&offset=85"},
		{"offset past the end", "?offset=200", []int{}, "<nil>", u + "?limit=10&offset=190"},
		{"offset equal to count", "?offset=95", []int{}, "<nil>", u + "?limit=10&offset=85"},
		{"limit clipped to max_limit", "?limit=1000", idRange(1, 95), "<nil>", "<nil>"},
		{"limit clipped, links carry 100", "?limit=101&offset=50", idRange(51, 95), "<nil>", u + "?limit=100"},
		{"limit 0 uses default", "?limit=0", idRange(1, 10), u + "?limit=10&offset=10", "<nil>"},
		{"limit negative uses default", "?limit=-5&offset=20", idRange(21, 30), u + "?limit=10&offset=30", u + "?limit=10&offset=10"},
		{"limit not a number uses default", "?limit=five", idRange(1, 10), u + "?limit=10&offset=10", "<nil>"},
		{"offset negative counts as 0", "?limit=3&offset=-4", idRange(1, 3), u + "?limit=3&offset=3", "<nil>"},
		{"offset not a number counts as 0", "?offset=x", idRange(1, 10), u + "?limit=10&offset=10", "<nil>"},
		{"limit 1 at the end", "?limit=1&offset=94", []int{95}, "<nil>", u + "?limit=1&offset=93"},
		{"other params kept, sorted", "?z=9&offset=10&a=1", idRange(11, 20), u + "?a=1&limit=10&offset=20&z=9", u + "?a=1&limit=10&z=9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := getPage(t, h, u+tt.query, nil)
			if p.Count == nil || *p.Count != 95 {
				t.Errorf("count: got %v; want 95", p.Count)
			}
			if got := ids(p.Results); !slices.Equal(got, tt.wantIDs) || p.Results == nil {
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

func TestLimitOffsetEmptyList(t *testing.T) {
	w := serve(t, mounted(Options{Items: []Item{}}), "GET", base+LimitOffsetPath+"?offset=0", nil)
	if got, want := w.Body.String(), `{"count":0,"next":null,"previous":null,"results":[]}`; w.Code != 200 || got != want {
		t.Errorf("got %d %s; want 200 %s", w.Code, got, want)
	}
}

func TestLimitOffsetWalk(t *testing.T) {
	h := mounted(Options{})
	for _, q := range []string{"", "?limit=7", "?limit=100", "?limit=1", "?limit=6&offset=4"} {
		t.Run("query"+q, func(t *testing.T) {
			var forward []page
			seen := map[int]int{}
			for next := base + LimitOffsetPath + q; next != ""; {
				p := getPage(t, h, next, nil)
				forward = append(forward, p)
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
			start := 1
			if q == "?limit=6&offset=4" {
				start = 5
			}
			if got, want := len(seen), 95-start+1; got != want {
				t.Errorf("distinct items: got %d; want %d", got, want)
			}
			for id, n := range seen {
				if n != 1 {
					t.Errorf("item %d: seen %d times; want once", id, n)
				}
			}
			// Back with previous: each window is the forward one, until the
			// first, which previous clips at offset 0.
			p := forward[len(forward)-1]
			for i := len(forward) - 2; i >= 0 && p.Previous != nil; i-- {
				p = getPage(t, h, *p.Previous, nil)
				if q == "?limit=6&offset=4" && i == 0 {
					break // the way back ends at offset 0, not 4
				}
				if got, want := ids(p.Results), ids(forward[i].Results); !slices.Equal(got, want) {
					t.Errorf("window %d going back: got %v; want %v", i, got, want)
				}
			}
		})
	}
}
