package app

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/ui"
)

// opWindow keeps in the page the rows of an opList near the list's viewport: the list
// element (ul#side-list, which scrolls) holds them between two spacers (its ::before and
// ::after, whose heights web/loupe.css reads from --above and --below), so that its
// scrollbar is that of every shown row while the browser styles and lays out a hundred.
//
// It changes the page itself, in the event that asks for it (a keystroke in the filter, a
// scroll), rather than through go-app's render: go-app renders on a timer of its own, a
// frame later, and matches children by position, so a row scrolled by would become another
// under the keyboard focus. Rows that stay in the window stay the same elements. The app
// runs on one thread: its handlers and these listeners never interleave.
type opWindow struct {
	list *opList
	ul   app.Value // the list element; undefined until mount

	lo, hi  int        // the shown rows in the page
	groups  []winGroup // the li.api-item in the page, in order
	current string     // the current page, as opList.key names it

	// at and height are the list's scroll offset and height as last read, in a scroll or
	// resize event, when the page's layout is fresh: reading them in a keystroke would make
	// the browser lay the page out then, and again for the frame.
	at, height float64
	hidden     bool // the list was out of sight (height 0) when last read

	measured [rowKinds + 1]bool // the kinds whose height, and the gap, the browser measured
	onScroll app.Func           // update, on a scroll or resize, or after a filter's frame
	resize   app.Value          // the ResizeObserver
}

// winGroup is one API's li.api-item in the page.
type winGroup struct {
	api    int32
	li, ul app.Value // the item and its list of rows
	title  bool      // the API's title (a.api-link) is in it
	n      int       // the rows in ul
}

// mount takes over the list element ul (empty), shows the rows in sight with the current
// page's row in view, and follows the list's scrolling and size.
func (w *opWindow) mount(ul app.Value, list *opList) {
	w.ul, w.list, w.lo, w.hi, w.groups = ul, list, 0, 0, nil
	w.current = currentKey()
	w.onScroll = app.FuncOf(func(app.Value, []app.Value) any {
		w.update()
		return nil
	})
	ul.Call("addEventListener", "scroll", w.onScroll, map[string]any{"passive": true})
	if ro := app.Window().Get("ResizeObserver"); ro.Truthy() {
		w.resize = ro.New(w.onScroll)
		w.resize.Call("observe", ul)
	}
	w.reveal()
}

// dismount stops following the list.
func (w *opWindow) dismount() {
	if w.onScroll == nil {
		return
	}
	w.ul.Call("removeEventListener", "scroll", w.onScroll)
	if w.resize != nil {
		w.resize.Call("disconnect")
	}
	w.onScroll.Release()
	w.onScroll, w.resize, w.ul = nil, nil, nil
}

// setList shows another list (a new catalog, or the same filtered anew) from its top, and
// marks the list element with the filter's text (data-filter) for whoever waits for it. It
// puts in the page only the rows in sight, for the next frame, and those beyond them once
// the browser is idle.
func (w *opWindow) setList(list *opList, filter string) {
	w.list = list
	if w.ul == nil {
		return
	}
	w.groups = w.groups[:0] // the rows in the page are another list's
	if w.at != 0 {
		w.ul.Set("scrollTop", 0)
		w.at = 0
	}
	w.show(list.span(0, w.height, 0))
	w.ul.Get("dataset").Set("filter", filter)
	if idle := app.Window().Get("requestIdleCallback"); idle.Truthy() {
		app.Window().Call("requestIdleCallback", w.onScroll, map[string]any{"timeout": 200})
	} else {
		app.Window().Call("setTimeout", w.onScroll, 50)
	}
}

// reveal shows the rows in sight, with the current page's row in the middle of the list
// when it would be out of sight. Only the list scrolls: scrollIntoView would scroll the
// page too, and open it scrolled down.
func (w *opWindow) reveal() {
	at, height := w.viewport()
	over := margin(height)
	// Twice: the first rows shown may measure the rows anew, which moves the current one.
	for range 2 {
		if i := w.list.find(w.current); i >= 0 {
			l := w.list
			if l.top[i] < at || l.top[i+1] > at+height {
				at = max(0, min(l.top[i]-(height-(l.top[i+1]-l.top[i]))/2, l.top[len(l.top)-1]-height))
			}
		}
		w.show(w.list.span(at, height, over))
	}
	w.ul.Set("scrollTop", at)
	w.at = at
}

// update shows the rows near the list's viewport when it has moved (or changed size) too
// far from those in the page.
func (w *opWindow) update() {
	if w.ul == nil {
		return
	}
	hidden := w.hidden
	at, height := w.viewport()
	if hidden && !w.hidden { // the phone's menu opened: show the current page's row
		w.reveal()
		return
	}
	over := margin(height)
	if w.measure() || !w.list.covers(w.lo, w.hi, at, height, over/2) {
		w.show(w.list.span(at, height, over))
	}
}

// viewport reads the list's scroll offset and height; a list out of sight (the phone's
// closed menu) counts as 600 px high.
func (w *opWindow) viewport() (at, height float64) {
	w.at, w.height = w.ul.Get("scrollTop").Float(), w.ul.Get("clientHeight").Float()
	if w.hidden = w.height <= 0; w.hidden {
		w.height = 600
	}
	return w.at, w.height
}

// margin is how far beyond a viewport of height px the page holds rows: one more viewport,
// at least 300 px, so that a scroll or a Tab to the next link finds it there.
func margin(height float64) float64 { return max(height, 300) }

// measure reads the heights of the rows in the page that it has not read yet: once that of
// an operation's row, of the workspace's and the gap between two APIs, which are the same
// everywhere, and that of each API's title and tag's name, which may wrap. It places the rows
// anew (and reports it) when they differ from the estimates. Reading a size makes the browser
// lay the page out at once, so it reads nothing when all is known, nor from a list out of
// sight.
func (w *opWindow) measure() (changed bool) {
	l := w.list
	var titles, tags []int32 // the rows to measure, in the page's order
	var want [rowKinds + 1]bool
	some := false
	for i := w.lo; i < w.hi; i++ {
		s := l.shown[i]
		switch k := l.rows[s].kind; {
		case k == rowAPI || k == rowTag:
			if _, ok := l.sized[s]; !ok {
				want[k], some = true, true
			}
		case !w.measured[k]:
			want[k], some = true, true
		}
	}
	if !w.measured[rowKinds] && len(w.groups) > 1 {
		want[rowKinds], some = true, true
	}
	if !some || w.ul.Get("clientHeight").Float() <= 0 {
		return false
	}
	for i := w.lo; i < w.hi; i++ {
		switch s := l.shown[i]; l.rows[s].kind {
		case rowAPI:
			titles = append(titles, s)
		case rowTag:
			tags = append(tags, s)
		}
	}
	height := func(el app.Value) float64 { return el.Call("getBoundingClientRect").Get("height").Float() }
	read := func(v *float64, h float64) {
		changed = changed || h != *v
		*v = h
	}
	each := func(rows []int32, sel string, kind rowKind) {
		if !want[kind] {
			return
		}
		els := w.ul.Call("querySelectorAll", sel)
		for i := 0; i < len(rows) && i < els.Length(); i++ {
			if _, ok := l.sized[rows[i]]; !ok {
				h := height(els.Index(i))
				changed = changed || h != l.height[kind]
				l.sized[rows[i]] = h
			}
		}
	}
	each(titles, ".api-link", rowAPI)
	each(tags, ".tag-name", rowTag)
	for k, sel := range map[rowKind]string{
		rowWorkspace: ".op-list > li:has(> .ws-link)",
		rowOp:        ".op-list > li:has(> .op-link:not(.ws-link, .side-link))",
		rowLink:      ".op-list > li:has(> .side-link)",
	} {
		if !want[k] {
			continue
		}
		if el := w.ul.Call("querySelector", sel); el.Truthy() {
			read(&l.height[k], height(el))
			w.measured[k] = true
		}
	}
	if want[rowKinds] {
		a := w.groups[0].li.Call("getBoundingClientRect").Get("bottom").Float()
		read(&l.gap, w.groups[1].li.Call("getBoundingClientRect").Get("top").Float()-a)
		w.measured[rowKinds] = true
	}
	if changed {
		l.layout()
	}
	return changed
}

// markCurrent marks the row of the page the address names as current (aria-current) and
// returns its link, or undefined when it is not in the page.
func (w *opWindow) markCurrent() app.Value {
	w.current = currentKey()
	if w.ul == nil {
		return app.Undefined()
	}
	old := w.ul.Call("querySelectorAll", "[aria-current]")
	for i := 0; i < old.Length(); i++ {
		old.Index(i).Call("removeAttribute", "aria-current")
	}
	slug, opID := parseRoute(ui.StripBase(app.Window().URL().Path))
	sel := `a.api-link[data-api="` + cssString(slug) + `"]`
	if opID != "" {
		sel = `a.op-link[data-op="` + cssString(slug+"/"+opID) + `"]`
	}
	el := w.ul.Call("querySelector", sel)
	if el.Truthy() {
		el.Call("setAttribute", "aria-current", "page")
	}
	return el
}

// currentKey names the page the address shows as opList.key does.
func currentKey() string {
	u := app.Window().URL()
	if u == nil {
		return ""
	}
	slug, opID := parseRoute(ui.StripBase(u.Path))
	return strings.TrimSuffix(slug+"/"+opID, "/")
}

// px is a length in CSS pixels.
func px(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + "px" }
