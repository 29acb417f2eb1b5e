package pagination

// cursorState is what DRF's CursorPagination keeps between paginate_queryset
// and the link methods: the request's cursor (nil without one), the page as
// shown, and the next and previous positions.
type cursorState struct {
	cur                  *cursorPos
	page                 []Item
	hasNext, hasPrevious bool
	nextPos, previousPos string
	nextHas, previousHas bool
}

// nextCursor is DRF's get_next_link: the cursor of the next page, walking
// back over items that share the following position to find a unique marker.
func (s *cursorState) nextCursor() (cursorPos, bool) {
	if !s.hasNext {
		return cursorPos{}, false
	}
	compare, compareHas := s.nextPos, s.nextHas
	if len(s.page) > 0 && s.cur != nil && s.cur.reverse && s.cur.offset != 0 {
		// Reversing direction with an offset cursor: the first position
		// found cannot be the marker.
		compare, compareHas = position(s.page[len(s.page)-1]), true
	}
	offset := 0
	pos, posHas := "", false
	unique := false
	for i := len(s.page) - 1; i >= 0; i-- {
		pos, posHas = position(s.page[i]), true
		if !compareHas || pos != compare {
			unique = true
			break
		}
		compare, compareHas = pos, true
		offset++
	}
	if len(s.page) > 0 && !unique {
		switch {
		case !s.hasPrevious: // the first page
			offset, pos, posHas = cursorPageSize, "", false
		case s.cur.reverse: // a paging artifact: skips a few items forward
			offset, pos, posHas = 0, s.previousPos, s.previousHas
		default:
			offset, pos, posHas = s.cur.offset+cursorPageSize, s.previousPos, s.previousHas
		}
	}
	if len(s.page) == 0 {
		pos, posHas = s.nextPos, s.nextHas
	}
	return cursorPos{offset: offset, reverse: false, position: pos, hasPos: posHas}, true
}

// previousCursor is DRF's get_previous_link, the mirror of nextCursor.
func (s *cursorState) previousCursor() (cursorPos, bool) {
	if !s.hasPrevious {
		return cursorPos{}, false
	}
	compare, compareHas := s.previousPos, s.previousHas
	if len(s.page) > 0 && s.cur != nil && !s.cur.reverse && s.cur.offset != 0 {
		compare, compareHas = position(s.page[0]), true
	}
	offset := 0
	pos, posHas := "", false
	unique := false
	for _, it := range s.page {
		pos, posHas = position(it), true
		if !compareHas || pos != compare {
			unique = true
			break
		}
		compare, compareHas = pos, true
		offset++
	}
	if len(s.page) > 0 && !unique {
		switch {
		case !s.hasNext: // the final page
			offset, pos, posHas = cursorPageSize, "", false
		case s.cur.reverse:
			offset, pos, posHas = s.cur.offset+cursorPageSize, s.nextPos, s.nextHas
		default: // a paging artifact: skips a few items back
			offset, pos, posHas = 0, s.nextPos, s.nextHas
		}
	}
	if len(s.page) == 0 {
		pos, posHas = s.previousPos, s.previousHas
	}
	return cursorPos{offset: offset, reverse: true, position: pos, hasPos: posHas}, true
}
