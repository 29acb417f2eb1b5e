package pagination

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"loupe/server/sandbox/drf"
)

// CursorPagination's configuration in the sandbox (see the YAML's
// x-loupe-pagination-config): ordering "-created", so the ordering is
// descending and positions are creation times.
const (
	cursorPageSize      = 10
	cursorQueryParam    = "cursor"
	offsetCutoff        = 1000
	invalidCursorDetail = "Invalid cursor"
)

// cursorPos is DRF's Cursor namedtuple: an offset from a position, a reverse
// flag, and the position (the ordering field as a string), if any.
type cursorPos struct {
	offset   int
	reverse  bool
	position string
	hasPos   bool
}

// cursorPage is the body of a cursor list: no count.
type cursorPage struct {
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Results  []Item  `json:"results"`
}

// cursor answers GET /cursor/items/ with DRF's CursorPagination algorithm:
// filter past the cursor's position, skip its offset, fetch one item more
// than a page to learn the following position, and build next/previous
// cursors that never show an item twice.
func (h *handler) cursor(r *http.Request, st *store) (any, *apiError) {
	var cur *cursorPos
	if raw, ok := drf.LastValue(r.URL.Query(), cursorQueryParam); ok {
		c, err := decodeCursor(raw)
		if err != nil {
			return nil, notFound(invalidCursorDetail)
		}
		cur = &c
	}
	var c cursorPos
	if cur != nil {
		c = *cur
	}
	// The ordering is "-created": the queryset is descending unless the
	// cursor reverses it; the filter is __lt when exactly one of them is.
	_, qs := st.snapshot()
	if c.reverse {
		qs = reversed(qs)
	}
	if c.hasPos {
		at, err := parsePosition(c.position)
		if err != nil {
			return nil, notFound(invalidCursorDetail)
		}
		qs = filterCreated(qs, at, !c.reverse) // (cursor reversed) XOR (ordering reversed)
	}
	start := min(c.offset, len(qs))
	results := qs[start:min(c.offset+cursorPageSize+1, len(qs))]
	page := results[:min(cursorPageSize, len(results))]
	p := &cursorState{cur: cur, page: page}
	hasFollowing := len(results) > len(page)
	following := ""
	if hasFollowing {
		following = position(results[len(results)-1])
	}
	if c.reverse {
		p.page = reversed(page)
		p.hasNext = c.hasPos || c.offset > 0
		p.hasPrevious = hasFollowing
		p.nextPos, p.nextHas = c.position, c.hasPos
		p.previousPos, p.previousHas = following, hasFollowing
	} else {
		p.hasNext = hasFollowing
		p.hasPrevious = c.hasPos || c.offset > 0
		p.nextPos, p.nextHas = following, hasFollowing
		p.previousPos, p.previousHas = c.position, c.hasPos
	}
	u := drf.AbsoluteURL(r, h.prefix)
	body := cursorPage{Results: p.page}
	if next, ok := p.nextCursor(); ok {
		body.Next = ptr(drf.ReplaceQueryParam(u, cursorQueryParam, encodeCursor(next)))
	}
	if prev, ok := p.previousCursor(); ok {
		body.Previous = ptr(drf.ReplaceQueryParam(u, cursorQueryParam, encodeCursor(prev)))
	}
	return body, nil
}

// filterCreated keeps the items created before at (lt) or after it (!lt).
func filterCreated(items []Item, at time.Time, lt bool) []Item {
	out := make([]Item, 0, len(items))
	for _, it := range items {
		if (lt && it.Created.Before(at)) || (!lt && it.Created.After(at)) {
			out = append(out, it)
		}
	}
	return out
}

// reversed returns a reversed copy of items.
func reversed(items []Item) []Item {
	out := make([]Item, len(items))
	for i, it := range items {
		out[len(items)-1-i] = it
	}
	return out
}

// position is DRF's _get_position_from_instance: str() of the ordering
// field, here Python's str(datetime), "2026-03-27 10:00:00+00:00".
func position(it Item) string {
	t := it.Created.UTC()
	if t.Nanosecond()/1000 != 0 {
		return t.Format("2006-01-02 15:04:05.000000-07:00")
	}
	return t.Format("2006-01-02 15:04:05-07:00")
}

// positionLayouts are the forms Django's DateTimeField accepts for a
// position (parse_datetime, then parse_date); fractional seconds are
// accepted after the seconds of any layout. Naive times are UTC.
var positionLayouts = []string{
	"2006-01-02 15:04:05Z07:00", "2006-01-02T15:04:05Z07:00",
	"2006-01-02 15:04Z07:00", "2006-01-02T15:04Z07:00",
	"2006-01-02 15:04:05", "2006-01-02T15:04:05",
	"2006-01-02 15:04", "2006-01-02T15:04",
	"2006-01-02",
}

// parsePosition reads a cursor's position as a time.
func parsePosition(s string) (time.Time, error) {
	for _, layout := range positionLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("cursor position %q is not a date-time", s)
}

// decodeCursor is DRF's decode_cursor: base64 of a query string with o
// (offset, clipped to offsetCutoff), r (reverse, an integer) and p (position).
func decodeCursor(encoded string) (cursorPos, error) {
	raw, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		return cursorPos{}, fmt.Errorf("decoding cursor %q: %w", encoded, err)
	}
	for _, b := range raw {
		if b >= 0x80 {
			return cursorPos{}, fmt.Errorf("decoding cursor %q: not ASCII", encoded)
		}
	}
	tokens, err := url.ParseQuery(string(raw))
	if err != nil {
		return cursorPos{}, fmt.Errorf("parsing cursor %q: %w", raw, err)
	}
	var c cursorPos
	if o, ok := tokens["o"]; ok {
		if c.offset, err = drf.PositiveInt(o[0], false, offsetCutoff); err != nil {
			return cursorPos{}, fmt.Errorf("cursor offset: %w", err)
		}
	}
	if rv, ok := tokens["r"]; ok {
		n, err := drf.PyInt(rv[0])
		if err != nil {
			return cursorPos{}, fmt.Errorf("cursor reverse flag: %w", err)
		}
		c.reverse = n != 0
	}
	if p, ok := tokens["p"]; ok {
		c.position, c.hasPos = p[0], true
	}
	return c, nil
}

// encodeCursor is DRF's encode_cursor: o (when not 0), r=1 (when reversed)
// and p (when set), urlencoded in that order, then standard padded base64.
func encodeCursor(c cursorPos) string {
	var parts []string
	if c.offset != 0 {
		parts = append(parts, "o="+strconv.Itoa(c.offset))
	}
	if c.reverse {
		parts = append(parts, "r=1")
	}
	if c.hasPos {
		parts = append(parts, "p="+url.QueryEscape(c.position))
	}
	return base64.StdEncoding.EncodeToString([]byte(strings.Join(parts, "&")))
}
