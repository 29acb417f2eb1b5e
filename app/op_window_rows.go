package app

import "strings"

// This file holds how opWindow changes the rows in the page: it adds and removes them at
// either end of those already there, group by group (li.api-item), so that the rows that stay
// stay the same elements.

// show puts the shown rows [lo, hi) in the page: it adds and removes rows at either end of
// those already there, or replaces them all when the two runs do not overlap.
func (w *opWindow) show(lo, hi int) {
	if w.ul == nil {
		return
	}
	if len(w.groups) == 0 || hi <= w.lo || lo >= w.hi || lo == hi {
		var b strings.Builder
		w.list.writeGroups(&b, lo, hi, w.current)
		w.ul.Set("innerHTML", b.String())
		w.groups = w.groups[:0]
		w.lo, w.hi = lo, hi
		w.adopt(0, w.ul.Get("children").Length(), lo)
	} else {
		for w.lo < lo {
			w.dropFirst()
		}
		for w.hi > hi {
			w.dropLast()
		}
		w.prepend(lo)
		w.append(hi)
	}
	w.measure()
	w.ul.Get("style").Call("setProperty", "--above", px(w.list.top[w.lo]))
	w.ul.Get("style").Call("setProperty", "--below", px(w.list.top[len(w.list.shown)]-w.list.top[w.hi]))
}

// adopt records the count li.api-item elements the list holds from index from, the first
// starting at shown row lo, at that place in groups.
func (w *opWindow) adopt(from, count, lo int) {
	kids, l := w.ul.Get("children"), w.list
	added := make([]winGroup, 0, count)
	for k := 0; k < count; k++ {
		r := l.rows[l.shown[lo]]
		g := winGroup{api: r.api, li: kids.Index(from + k), title: r.kind == rowAPI}
		g.ul = g.li.Get("lastElementChild")
		g.n = g.ul.Get("children").Length()
		if g.title {
			lo++
		}
		lo += g.n
		added = append(added, g)
	}
	w.groups = append(w.groups[:from:from], append(added, w.groups[from:]...)...)
}

// dropFirst removes the first row in the page.
func (w *opWindow) dropFirst() {
	g := &w.groups[0]
	if g.title {
		g.li.Get("firstElementChild").Call("remove")
		g.title = false
	} else {
		g.ul.Get("firstElementChild").Call("remove")
		g.n--
	}
	if !g.title && g.n == 0 {
		g.li.Call("remove")
		w.groups = w.groups[1:]
	}
	w.lo++
}

// dropLast removes the last row in the page.
func (w *opWindow) dropLast() {
	g := &w.groups[len(w.groups)-1]
	if g.n > 0 {
		g.ul.Get("lastElementChild").Call("remove")
		g.n--
	} else {
		g.li.Get("firstElementChild").Call("remove")
		g.title = false
	}
	if !g.title && g.n == 0 {
		g.li.Call("remove")
		w.groups = w.groups[:len(w.groups)-1]
	}
	w.hi--
}

// prepend adds the shown rows [lo, w.lo) before those in the page: the first group's own
// rows into it, the others as groups before it.
func (w *opWindow) prepend(lo int) {
	if lo >= w.lo {
		return
	}
	l, g := w.list, &w.groups[0]
	start := w.lo
	for start > lo && l.rows[l.shown[start-1]].api == g.api && !g.title {
		start--
		if l.rows[l.shown[start]].kind == rowAPI {
			break
		}
	}
	var b strings.Builder
	rows := start
	if rows < w.lo && l.rows[l.shown[rows]].kind == rowAPI {
		rows++
	}
	if rows < w.lo {
		l.writeRows(&b, rows, w.lo, w.current)
		g.ul.Call("insertAdjacentHTML", "afterbegin", b.String())
		g.n += w.lo - rows
	}
	if rows > start {
		b.Reset()
		l.writeRow(&b, start, w.current)
		g.li.Call("insertAdjacentHTML", "afterbegin", b.String())
		g.title = true
	}
	if start > lo {
		b.Reset()
		l.writeGroups(&b, lo, start, w.current)
		before := w.ul.Get("children").Length()
		w.ul.Call("insertAdjacentHTML", "afterbegin", b.String())
		w.adopt(0, w.ul.Get("children").Length()-before, lo)
	}
	w.lo = lo
}

// append adds the shown rows [w.hi, hi) after those in the page: the last group's own rows
// into it, the others as groups after it.
func (w *opWindow) append(hi int) {
	if hi <= w.hi {
		return
	}
	l, g := w.list, &w.groups[len(w.groups)-1]
	end := l.apiEnd(w.hi, hi, g.api)
	var b strings.Builder
	if end > w.hi {
		l.writeRows(&b, w.hi, end, w.current)
		g.ul.Call("insertAdjacentHTML", "beforeend", b.String())
		g.n += end - w.hi
	}
	if end < hi {
		b.Reset()
		l.writeGroups(&b, end, hi, w.current)
		before := w.ul.Get("children").Length()
		w.ul.Call("insertAdjacentHTML", "beforeend", b.String())
		w.adopt(before, w.ul.Get("children").Length()-before, end)
	}
	w.hi = hi
}
