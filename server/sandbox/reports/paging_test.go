package reports

import (
	"reflect"
	"strconv"
	"testing"
)

// TestPagingEachOnce: paging through the whole list with any page size returns every record
// exactly once, newest first, each page at most maxResults long.
func TestPagingEachOnce(t *testing.T) {
	h := newTestHandler(t)
	want := matching(h, func(*record) bool { return true })
	for _, size := range []int{1, 2, 7, 50, 321, 322, 1000} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			var got []string
			target := listPath + "?maxResults=" + strconv.Itoa(size)
			next, pages := target, 0
			for {
				p := list(t, h, next)
				pages++
				if len(p.Items) > size || len(p.Items) == 0 {
					t.Fatalf("page %d: got %d items; want 1 to %d", pages, len(p.Items), size)
				}
				got = append(got, qualifiers(p.Items)...)
				if p.NextPageToken == "" {
					break
				}
				next = target + "&pageToken=" + p.NextPageToken
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %d records; want the %d of the dataset in order", len(got), len(want))
			}
			if wantPages := (len(want) + size - 1) / size; pages != wantPages {
				t.Errorf("pages: got %d; want %d", pages, wantPages)
			}
		})
	}
}

// TestMaxResults: the default page is 1000 records; 1 and 1000 are the bounds; an empty
// maxResults is the default.
func TestMaxResults(t *testing.T) {
	h := newTestHandler(t)
	tests := []struct {
		query    string
		wantLen  int
		wantNext bool
	}{
		{"", 1000, true},
		{"?maxResults=", 1000, true},
		{"?maxResults=1", 1, true},
		{"?maxResults=1000", 1000, true},
		{"?maxResults=10", 10, true},
		{"?maxResults=0010", 10, true},
	}
	for _, tt := range tests {
		p := list(t, h, listPath+tt.query)
		if got := len(p.Items); got != tt.wantLen {
			t.Errorf("%q: got %d items; want %d", tt.query, got, tt.wantLen)
		}
		if got := p.NextPageToken != ""; got != tt.wantNext {
			t.Errorf("%q: got nextPageToken %q; want one: %v", tt.query, p.NextPageToken, tt.wantNext)
		}
	}
}

// TestPageToken: a token round-trips through decodeToken, the last page has none, an empty
// result is an empty items list, and a token is only valid for its application.
func TestPageToken(t *testing.T) {
	h := newTestHandler(t)
	r := &h.records[5]
	tok := encodeToken(r, calendarApp)
	c, ok := decodeToken(tok, calendarApp)
	if !ok || c.micros != r.at.UnixMicro() || c.uq != r.uq {
		t.Errorf("decodeToken(%s): got %+v %v; want {%d %d} true", tok, c, ok, r.at.UnixMicro(), r.uq)
	}
	for _, bad := range []string{"", "A", "B:1:2:calendar:C03az79cb", "A:x:2:calendar:C03az79cb", "A:1:x:calendar:C03az79cb",
		"A:-1:2:calendar:C03az79cb", "A:1:2:drive:C03az79cb", "A:1:2:calendar:C0other", "A:1:2:calendar:C03az79cb:x"} {
		if _, ok := decodeToken(bad, calendarApp); ok {
			t.Errorf("decodeToken(%q): got ok; want not ok", bad)
		}
	}
	p := list(t, h, listPath+"?maxResults=5&pageToken="+tok)
	if got, want := qualifiers(p.Items), matching(h, func(*record) bool { return true })[6:11]; !reflect.DeepEqual(got, want) {
		t.Errorf("page after record 5: got %v; want %v", got, want)
	}
	last := encodeToken(&h.records[len(h.records)-1], calendarApp)
	p = list(t, h, listPath+"?pageToken="+last)
	if len(p.Items) != 0 || p.NextPageToken != "" || p.Items == nil {
		t.Errorf("after the oldest record: got %d items (nil: %v), token %q; want an empty list and no token", len(p.Items), p.Items == nil, p.NextPageToken)
	}
}
