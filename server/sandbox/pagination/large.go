package pagination

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/google/btree"

	"loupe/server/sandbox/drf"
)

// Paths of the large list, LargeCount items in two styles.
const (
	LargeCursorPath      = "/large/cursor/items/"
	LargeLimitOffsetPath = "/large/limit-offset/items/"
)

// LargeCount is the number of items of the large list.
const LargeCount = 1_000_000

// largeFirstCreated is when large item 1 was created; item n one second
// per ID later.
var largeFirstCreated = time.Date(2025, time.January, 1, 0, 0, 0, 0, time.UTC)

// largeList is a read-only list of LargeCount items ordered by id, held the
// way a database holds an indexed table: the IDs in a B-tree, each item
// derived from its ID. A cursor page seeks the tree to its position (log n);
// an offset walks the tree from the start, as a database walks and discards
// rows before OFFSET, so a deep offset costs in proportion to its depth.
type largeList struct {
	once sync.Once
	ids  *btree.BTreeG[int32]
}

// tree builds the index on first use (a few hundred milliseconds, a few MB).
func (l *largeList) tree() *btree.BTreeG[int32] {
	l.once.Do(func() {
		l.ids = btree.NewOrderedG[int32](64)
		for id := int32(1); id <= LargeCount; id++ {
			l.ids.ReplaceOrInsert(id)
		}
	})
	return l.ids
}

// largeItem is the item with id.
func largeItem(id int32) Item {
	return Item{ID: int(id), Name: fmt.Sprintf("Item %d", id), Created: largeFirstCreated.Add(time.Duration(id-1) * time.Second)}
}

// largeCursor answers GET /large/cursor/items/: CursorPagination with
// ordering "id". Positions are unique, so a page is one seek: the items
// after (or, reversed, before) the cursor's position, past its offset.
func (h *handler) largeCursor(r *http.Request, _ *store) (any, *apiError) {
	var c cursorPos
	if raw, ok := drf.LastValue(r.URL.Query(), cursorQueryParam); ok {
		var err error
		if c, err = decodeCursor(raw); err != nil {
			return nil, notFound(invalidCursorDetail)
		}
	}
	pos := int32(0)
	if c.hasPos {
		n, err := strconv.ParseInt(c.position, 10, 32)
		if err != nil {
			return nil, notFound(invalidCursorDetail) // not an id: a cursor of another list
		}
		pos = int32(n)
	}
	want := c.offset + cursorPageSize + 1
	var got []int32
	collect := func(id int32) bool { got = append(got, id); return len(got) < want }
	switch {
	case c.reverse && c.hasPos:
		h.large.tree().DescendLessOrEqual(pos-1, collect)
	case c.reverse:
		h.large.tree().Descend(collect)
	case c.hasPos:
		h.large.tree().AscendGreaterOrEqual(pos+1, collect)
	default:
		h.large.tree().Ascend(collect)
	}
	got = got[min(c.offset, len(got)):]
	more := len(got) > cursorPageSize
	got = got[:min(cursorPageSize, len(got))]
	if c.reverse {
		for i, j := 0, len(got)-1; i < j; i, j = i+1, j-1 {
			got[i], got[j] = got[j], got[i]
		}
	}
	body := cursorPage{Results: make([]Item, len(got))}
	for i, id := range got {
		body.Results[i] = largeItem(id)
	}
	hasNext, hasPrev := more, c.hasPos || c.offset > 0
	if c.reverse {
		hasNext, hasPrev = c.hasPos || c.offset > 0, more
	}
	u := drf.AbsoluteURL(r, h.prefix)
	link := func(c cursorPos) *string {
		return ptr(drf.ReplaceQueryParam(u, cursorQueryParam, encodeCursor(c)))
	}
	switch {
	case hasNext && len(got) > 0:
		body.Next = link(cursorPos{position: strconv.Itoa(int(got[len(got)-1])), hasPos: true})
	case hasNext:
		body.Next = link(cursorPos{position: c.position, hasPos: c.hasPos})
	}
	switch {
	case hasPrev && len(got) > 0:
		body.Previous = link(cursorPos{reverse: true, position: strconv.Itoa(int(got[0])), hasPos: true})
	case hasPrev:
		body.Previous = link(cursorPos{reverse: true, position: c.position, hasPos: c.hasPos})
	}
	return body, nil
}

// largeLimitOffset answers GET /large/limit-offset/items/ like the small
// list's LimitOffsetPagination, walking the index past offset items.
func (h *handler) largeLimitOffset(r *http.Request, _ *store) (any, *apiError) {
	q := r.URL.Query()
	limit, offset := limitAndOffset(q)
	t := h.large.tree()
	count := t.Len()
	page := countedPage{Count: count, Results: []Item{}}
	skipped := 0
	t.Ascend(func(id int32) bool {
		if skipped < offset {
			skipped++
			return true
		}
		page.Results = append(page.Results, largeItem(id))
		return len(page.Results) < limit
	})
	page.Next, page.Previous = offsetLinks(drf.AbsoluteURL(r, h.prefix), limit, offset, count)
	return page, nil
}
