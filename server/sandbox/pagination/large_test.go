package pagination

import (
	"net/http"
	"reflect"
	"strconv"
	"testing"
)

func TestLargeCursor(t *testing.T) {
	h := mounted(Options{})
	first := getPage(t, h, base+LargeCursorPath, nil)
	if got, want := ids(first.Results), idRange(1, 10); !reflect.DeepEqual(got, want) || first.Previous != nil || first.Count != nil {
		t.Fatalf("first page: got %v, previous %s; want %v, null, no count", got, str(first.Previous), want)
	}
	// Forward three pages, then back.
	pages := []page{first}
	for i := 0; i < 3; i++ {
		pages = append(pages, getPage(t, h, *pages[len(pages)-1].Next, nil))
	}
	if got, want := ids(pages[3].Results), idRange(31, 40); !reflect.DeepEqual(got, want) {
		t.Errorf("page 4: got %v; want %v", got, want)
	}
	back := getPage(t, h, *pages[3].Previous, nil)
	if got, want := ids(back.Results), idRange(21, 30); !reflect.DeepEqual(got, want) {
		t.Errorf("back from page 4: got %v; want %v", got, want)
	}
	if fwd := getPage(t, h, *back.Next, nil); !reflect.DeepEqual(ids(fwd.Results), idRange(31, 40)) {
		t.Errorf("forward again: got %v; want 31..40", ids(fwd.Results))
	}
	// The end of the list, deep down.
	last := getPage(t, h, base+LargeCursorPath+"?cursor="+encodeCursor(cursorPos{position: "999990", hasPos: true}), nil)
	if got, want := ids(last.Results), idRange(999991, 1000000); !reflect.DeepEqual(got, want) || last.Next != nil || last.Previous == nil {
		t.Errorf("last page: got %v next %s previous %s; want %v, null, a link", got, str(last.Next), str(last.Previous), want)
	}
	if it := last.Results[9]; it.Name != "Item 1000000" || it.Created.Format("2006-01-02T15:04:05Z07:00") != "2025-01-12T13:46:39Z" {
		t.Errorf("item 1000000: got %+v", it)
	}
	// A cursor of the small list (a date-time position) or one that does not decode.
	for _, c := range []string{"cD0yMDI2LTAzLTI3KzEwJTNBMDAlM0EwMCUyQjAwJTNBMDA%3D", "!!!", "cD1pdGVtLTQy"} {
		w := serve(t, h, http.MethodGet, base+LargeCursorPath+"?cursor="+c, nil)
		if w.Code != 404 || w.Body.String() != `{"detail":"Invalid cursor"}` {
			t.Errorf("cursor %s: got %d %s; want 404 Invalid cursor", c, w.Code, w.Body)
		}
	}
}

func TestLargeLimitOffset(t *testing.T) {
	h := mounted(Options{})
	p := getPage(t, h, base+LargeLimitOffsetPath+"?offset=999995&limit=10", nil)
	if got, want := ids(p.Results), idRange(999996, 1000000); !reflect.DeepEqual(got, want) || *p.Count != LargeCount || p.Next != nil {
		t.Errorf("deep page: got %v count %d next %s; want %v, %d, null", got, *p.Count, str(p.Next), want, LargeCount)
	}
	if str(p.Previous) != base+LargeLimitOffsetPath+"?limit=10&offset=999985" {
		t.Errorf("previous: got %s", str(p.Previous))
	}
}

// BenchmarkLargeList compares a page of the 1,000,000-item list near its
// start and deep in it (at 900,000): a cursor page costs the same at both,
// a limit/offset page costs in proportion to its offset.
func BenchmarkLargeList(b *testing.B) {
	h := mounted(Options{})
	sharedLarge.tree()
	deep := encodeCursor(cursorPos{position: "900000", hasPos: true})
	for _, bc := range []struct{ name, target string }{
		{"cursor/first", LargeCursorPath},
		{"cursor/deep", LargeCursorPath + "?cursor=" + deep},
		{"limit-offset/first", LargeLimitOffsetPath},
		{"limit-offset/deep", LargeLimitOffsetPath + "?limit=10&offset=" + strconv.Itoa(900000)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				r, _ := http.NewRequest(http.MethodGet, base+bc.target, nil)
				w := &discard{header: http.Header{}}
				h.ServeHTTP(w, r)
				if w.status != 0 && w.status != http.StatusOK {
					b.Fatalf("status %d", w.status)
				}
			}
		})
	}
}

// discard is a ResponseWriter that keeps only the status.
type discard struct {
	header http.Header
	status int
}

func (d *discard) Header() http.Header         { return d.header }
func (d *discard) Write(p []byte) (int, error) { return len(p), nil }
func (d *discard) WriteHeader(status int)      { d.status = status }
