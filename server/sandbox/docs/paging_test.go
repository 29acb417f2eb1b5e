package docs

import (
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"loupe/server/sandbox/drf"
)

// TestPagingEveryList follows next links through every list, for several
// page sizes, and wants each item exactly once, in the unpaged order; then
// it follows previous links back and wants the same pages.
func TestPagingEveryList(t *testing.T) {
	h := mounted(Options{})
	lists := []string{
		"/api/v2/project/", "/api/v2/project/?slug=pip",
		"/api/v2/version/?project__slug=pip", "/api/v2/version/?project__slug=pip&active=true",
		"/api/v2/version/?project__slug=quill-orm", "/api/v2/build/?project__slug=kitchen-sink",
		"/api/v2/build/?project__slug=pip", "/api/v2/build/?project__slug=tidewater",
	}
	for _, list := range lists {
		target := "http://loupe.test/sandbox/docs" + list
		var all listPage
		getJSON(t, h, target+sep(target)+"limit=1000", http.StatusOK, &all)
		want := resultIDs(t, all)
		for _, limit := range []string{"1", "2", "3", "7", "10", ""} {
			t.Run(list+" limit="+limit, func(t *testing.T) {
				first := target
				if limit != "" {
					first += sep(target) + "limit=" + limit
				}
				var got []int
				var pages [][]int
				link := &first
				for n := 0; link != nil; n++ {
					if n > 200 {
						t.Fatal("more than 200 pages")
					}
					var p listPage
					getJSON(t, h, *link, http.StatusOK, &p)
					if p.Count != len(want) {
						t.Errorf("count: got %d; want %d", p.Count, len(want))
					}
					if n == 0 && p.Previous != nil {
						t.Errorf("first page previous: got %s; want null", *p.Previous)
					}
					ids := resultIDs(t, p)
					got = append(got, ids...)
					pages = append(pages, ids)
					link = p.Next
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("items: got %v; want %v", got, want)
				}
				// Back from the last page.
				var last listPage
				lastURL := first + sep(first) + "offset=" + strconv.Itoa((len(pages)-1)*pageSize(limit))
				getJSON(t, h, lastURL, http.StatusOK, &last)
				back := [][]int{resultIDs(t, last)}
				for link := last.Previous; link != nil; {
					var p listPage
					getJSON(t, h, *link, http.StatusOK, &p)
					back = append(back, resultIDs(t, p))
					link = p.Previous
				}
				slices.Reverse(back)
				if !reflect.DeepEqual(back, pages) {
					t.Errorf("pages backwards: got %v; want %v", back, pages)
				}
			})
		}
	}
}

// sep is the separator to add a query parameter to target.
func sep(target string) string {
	if strings.Contains(target, "?") {
		return "&"
	}
	return "?"
}

// pageSize is the limit a test used, 10 when none.
func pageSize(limit string) int {
	if limit == "" {
		return defaultLimit
	}
	n, _ := drf.PyInt(limit)
	return n
}

func TestLimitOffset(t *testing.T) {
	const list = base + "/api/v2/version/?project__slug=pip"
	const links = base + "/api/v2/version/?" // keys sorted, like DRF's
	tests := []struct {
		query        string
		wantIDs      []int
		wantNext     string
		wantPrevious string
	}{
		{"", pipAll()[:10], links + "limit=10&offset=10&project__slug=pip", ""},
		{"&limit=0", pipAll()[:10], links + "limit=10&offset=10&project__slug=pip", ""},
		{"&limit=-3", pipAll()[:10], links + "limit=10&offset=10&project__slug=pip", ""},
		{"&limit=x", pipAll()[:10], links + "limit=10&offset=10&project__slug=pip", ""},
		{"&limit=1000", pipAll(), "", ""},
		{"&limit=4&offset=4", pipAll()[4:8], links + "limit=4&offset=8&project__slug=pip", links + "limit=4&project__slug=pip"},
		{"&limit=4&offset=9", pipAll()[9:13], links + "limit=4&offset=13&project__slug=pip", links + "limit=4&offset=5&project__slug=pip"},
		{"&limit=4&offset=12", pipAll()[12:], "", links + "limit=4&offset=8&project__slug=pip"},
		{"&offset=-5", pipAll()[:10], links + "limit=10&offset=10&project__slug=pip", ""},
		{"&offset=x", pipAll()[:10], links + "limit=10&offset=10&project__slug=pip", ""},
		{"&limit=5&offset=14", []int{}, "", links + "limit=5&offset=9&project__slug=pip"},
		{"&limit=5&offset=99", []int{}, "", links + "limit=5&offset=94&project__slug=pip"},
	}
	h := New(Options{})
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			var p listPage
			getJSON(t, h, list+tt.query, http.StatusOK, &p)
			if got := resultIDs(t, p); !reflect.DeepEqual(got, tt.wantIDs) {
				t.Errorf("ids: got %v; want %v", got, tt.wantIDs)
			}
			if got, want := str(p.Next), orNil(tt.wantNext); got != want {
				t.Errorf("next: got %s; want %s", got, want)
			}
			if got, want := str(p.Previous), orNil(tt.wantPrevious); got != want {
				t.Errorf("previous: got %s; want %s", got, want)
			}
			if p.Count != 14 {
				t.Errorf("count: got %d; want 14", p.Count)
			}
		})
	}
}

// pipAll are all of pip's versions in list order.
func pipAll() []int {
	return slices.Concat(pipActive[:2], []int{312447}, pipActive[2:], []int{13521})
}

// orNil is "<nil>" for "", like str.
func orNil(s string) string {
	if s == "" {
		return "<nil>"
	}
	return s
}

func TestProjectPageNumber(t *testing.T) {
	tests := []struct {
		query      string
		wantStatus int
		wantIDs    []int
	}{
		{"?page=1", 200, allProjects},
		{"?page=last", 200, allProjects},
		{"?page=1&limit=1", 200, allProjects},
		{"?page=1&slug=pip", 200, []int{6}},
		{"?page=1&slug=nope", 200, []int{}},
		{"?page=2", 404, nil},
		{"?page=0", 404, nil},
		{"?page=", 404, nil},
		{"?page=x", 404, nil},
	}
	h := New(Options{})
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			if tt.wantStatus == 404 {
				var body map[string]any
				getJSON(t, h, base+"/api/v2/project/"+tt.query, 404, &body)
				if got := body["detail"]; got != "Invalid page." {
					t.Errorf("detail: got %v; want Invalid page.", got)
				}
				return
			}
			var p listPage
			getJSON(t, h, base+"/api/v2/project/"+tt.query, 200, &p)
			if got := resultIDs(t, p); !reflect.DeepEqual(got, tt.wantIDs) {
				t.Errorf("ids: got %v; want %v", got, tt.wantIDs)
			}
			if p.Next != nil || p.Previous != nil {
				t.Errorf("links: got %s, %s; want null, null", str(p.Next), str(p.Previous))
			}
		})
	}
}
