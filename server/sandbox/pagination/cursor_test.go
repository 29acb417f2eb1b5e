package pagination

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// exampleCursor is the cursor the YAML documents for the second page.
const exampleCursor = "cD0yMDI2LTAzLTI3KzEwJTNBMDAlM0EwMCUyQjAwJTNBMDA="

// cursorOf extracts and decodes the cursor of a link.
func cursorOf(t *testing.T, link string) cursorPos {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatalf("parsing %s: %v", link, err)
	}
	c, err := decodeCursor(u.Query().Get("cursor"))
	if err != nil {
		t.Fatalf("cursor of %s: %v", link, err)
	}
	return c
}

func TestCursorFirstPage(t *testing.T) {
	p := getPage(t, mounted(Options{}), base+CursorPath, nil)
	if got, want := ids(p.Results), idRange(95, 86); !slices.Equal(got, want) {
		t.Errorf("ids: got %v; want %v", got, want)
	}
	if got, want := str(p.Next), base+CursorPath+"?cursor="+strings.ReplaceAll(exampleCursor, "=", "%3D"); got != want {
		t.Errorf("next: got %s; want %s", got, want)
	}
	if p.Previous != nil || p.Count != nil {
		t.Errorf("previous, count: got %s, %v; want null and absent", str(p.Previous), p.Count)
	}
}

func TestCursorCodec(t *testing.T) {
	tests := []struct {
		name    string
		cursor  cursorPos
		wantRaw string
	}{
		{"position only", cursorPos{position: "2026-03-27 10:00:00+00:00", hasPos: true}, "p=2026-03-27+10%3A00%3A00%2B00%3A00"},
		{"offset, reverse, position", cursorPos{offset: 3, reverse: true, position: "x y", hasPos: true}, "o=3&r=1&p=x+y"},
		{"offset only", cursorPos{offset: 10}, "o=10"},
		{"nothing", cursorPos{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enc := encodeCursor(tt.cursor)
			raw, err := base64.StdEncoding.DecodeString(enc)
			if err != nil || string(raw) != tt.wantRaw {
				t.Errorf("encoded %q: got %q, %v; want %q", enc, raw, err, tt.wantRaw)
			}
			got, err := decodeCursor(enc)
			if err != nil || got != tt.cursor {
				t.Errorf("round trip: got %+v, %v; want %+v", got, err, tt.cursor)
			}
		})
	}
	if c, err := decodeCursor(exampleCursor); err != nil || c.position != "2026-03-27 10:00:00+00:00" || c.offset != 0 || c.reverse {
		t.Errorf("documented cursor: got %+v, %v; want position 2026-03-27 10:00:00+00:00", c, err)
	}
	b64 := base64.StdEncoding.EncodeToString
	if c, err := decodeCursor(b64([]byte("o=5000"))); err != nil || c.offset != offsetCutoff {
		t.Errorf("offset 5000: got %+v, %v; want offset clipped to %d", c, err, offsetCutoff)
	}
}

func TestCursorInvalid(t *testing.T) {
	h := mounted(Options{})
	b64 := func(s string) string { return url.QueryEscape(base64.StdEncoding.EncodeToString([]byte(s))) }
	for _, c := range []string{"123", "not%20base64!", "cD0x", b64("o=-1"), b64("o=x"), b64("r=yes"), b64("o="), b64("p=yesterday"), b64("\xff")} {
		t.Run(c, func(t *testing.T) {
			w := serve(t, h, http.MethodGet, base+CursorPath+"?cursor="+c, nil)
			if w.Code != http.StatusNotFound {
				t.Errorf("status: got %d; want 404", w.Code)
			}
			if got, want := w.Body.String(), `{"detail":"Invalid cursor"}`; got != want {
				t.Errorf("body: got %s; want %s", got, want)
			}
		})
	}
}

func TestCursorValidEdgeCases(t *testing.T) {
	h := mounted(Options{})
	b64 := func(s string) string { return url.QueryEscape(base64.StdEncoding.EncodeToString([]byte(s))) }
	tests := []struct {
		name     string
		cursor   string
		wantIDs  []int
		wantPrev bool
	}{
		{"empty cursor is the first page", "", idRange(95, 86), false},
		{"offset without position", b64("o=10"), idRange(85, 76), true},
		{"offset cut off at 1000", b64("o=5000"), []int{}, true},
		{"ISO position", b64("p=2026-01-05T10:00:00Z"), idRange(4, 1), true},
		{"reverse from a position", b64("r=1&p=2026-01-05+10%3A00%3A00%2B00%3A00"), idRange(15, 6), true},
		{"reverse from the start has no previous", b64("r=1&p=2026-04-05+10%3A00%3A00%2B00%3A00"), []int{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := getPage(t, h, base+CursorPath+"?cursor="+tt.cursor, nil)
			if got := ids(p.Results); !slices.Equal(got, tt.wantIDs) {
				t.Errorf("ids: got %v; want %v", got, tt.wantIDs)
			}
			if got := p.Previous != nil; got != tt.wantPrev {
				t.Errorf("has previous: got %v (%s); want %v", got, str(p.Previous), tt.wantPrev)
			}
		})
	}
}

// walkCursor follows next from the first page to the end, then previous back
// to the start, and returns the pages seen each way.
func walkCursor(t *testing.T, h http.Handler, first string) (forward, back [][]int) {
	t.Helper()
	p := getPage(t, h, first, nil)
	forward = append(forward, ids(p.Results))
	for p.Next != nil {
		p = getPage(t, h, *p.Next, nil)
		forward = append(forward, ids(p.Results))
		if len(forward) > 200 {
			t.Fatal("more than 200 pages")
		}
	}
	back = append(back, ids(p.Results))
	for p.Previous != nil {
		p = getPage(t, h, *p.Previous, nil)
		back = append(back, ids(p.Results))
		if len(back) > 200 {
			t.Fatal("more than 200 pages back")
		}
	}
	slices.Reverse(back)
	return forward, back
}

func TestCursorWalk(t *testing.T) {
	tests := []struct {
		name  string
		items []Item
		want  []int // every ID, in the cursor's order
	}{
		{"documented dataset", nil, idRange(95, 1)},
		{"a multiple of the page size", MakeItems(30), idRange(30, 1)},
		{"one page", MakeItems(10), idRange(10, 1)},
		{"less than a page", MakeItems(3), idRange(3, 1)},
		{"empty", []Item{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := mounted(Options{Items: tt.items})
			forward, back := walkCursor(t, h, base+CursorPath+"?ordering=ignored")
			if got := slices.Concat(forward...); !slices.Equal(got, tt.want) {
				t.Errorf("forward: got %v; want %v", got, tt.want)
			}
			if !slices.EqualFunc(forward, back, slices.Equal) {
				t.Errorf("back: got pages %v; want %v", back, forward)
			}
		})
	}
}

func TestCursorWalkWithSharedPositions(t *testing.T) {
	// Several items per creation time: the cursors need offsets.
	var items []Item
	day := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	for i, n := range []int{1, 1, 1, 1, 1, 1, 12, 2, 3, 4, 4, 4, 4, 5, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9} {
		items = append(items, Item{ID: i + 1, Name: "x", Created: day.AddDate(0, 0, n)})
	}
	forward, _ := walkCursor(t, mounted(Options{Items: items}), base+CursorPath)
	seen := map[int]int{}
	for _, id := range slices.Concat(forward...) {
		seen[id]++
	}
	if len(seen) != len(items) {
		t.Errorf("distinct items going forward: got %d; want %d", len(seen), len(items))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("item %d: seen %d times; want once", id, n)
		}
	}
}
