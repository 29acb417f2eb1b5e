package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// DescribedBy returns id when on is true, for an aria-describedby naming an error that shows.
func DescribedBy(on bool, id string) string {
	if on {
		return id
	}
	return ""
}

// OnTabKey moves between the tabs of a tablist with the arrow keys, Home and End (the WAI-ARIA
// tabs pattern, automatic activation): the tab reached gets the focus and is selected.
func OnTabKey(ctx app.Context, e app.Event) {
	key := e.Get("key").String()
	tab := ctx.JSSrc()
	tabs := tab.Get("parentElement").Call("querySelectorAll", `[role="tab"]`)
	n := tabs.Length()
	cur := 0
	for i := 0; i < n; i++ {
		if tabs.Index(i).Equal(tab) {
			cur = i
		}
	}
	next := cur
	switch key {
	case "ArrowRight", "ArrowDown":
		next = (cur + 1) % n
	case "ArrowLeft", "ArrowUp":
		next = (cur + n - 1) % n
	case "Home":
		next = 0
	case "End":
		next = n - 1
	default:
		return
	}
	e.PreventDefault()
	t := tabs.Index(next)
	t.Call("click")
	t.Call("focus")
}
