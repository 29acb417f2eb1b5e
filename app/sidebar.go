package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
)

// sidebar lists every API and its operations (opList), grouped by tag, with a filter box.
// Filtering hides the operations that do not match with one style rule, so a keystroke costs
// the same whether the catalog lists ten operations or a thousand.
type sidebar struct {
	app.Compo

	// Cat is the catalog to list; nil shows placeholders.
	Cat *catalog.Catalog
	// Slug and OpID name the current page, highlighted in the list.
	Slug, OpID string

	filter string
	texts  []string         // opText of every operation, in catalog order
	textOf *catalog.Catalog // the catalog texts was made for
}

func newSidebar(cat *catalog.Catalog, slug, opID string) *sidebar {
	return &sidebar{Cat: cat, Slug: slug, OpID: opID}
}

// OnNav marks the new current page in the list (markCurrent) without re-rendering it.
func (s *sidebar) OnNav(ctx app.Context) { ctx.Defer(func(app.Context) { markCurrent() }) }

func (s *sidebar) onFilter(ctx app.Context, e app.Event) {
	s.filter = ctx.JSSrc().Get("value").String()
	applyFilter(s.filter)
}

// filterSheet holds the filter's style rule: a stylesheet made in script and adopted by the
// document (CSSOM), which the page's Content-Security-Policy allows where it refuses a
// <style> element. Undefined until the first filter.
var filterSheet app.Value

// applyFilter puts the filter's style rule (filterRules) in the page at once, in the input
// event, so the next frame the browser paints shows the filtered list; go-app's render of
// the rest (the "no match" line) follows on its own frame. It marks the list it filtered
// with data-filter.
func applyFilter(filter string) {
	doc := app.Window().Get("document")
	if filterSheet == nil {
		filterSheet = app.Window().Get("CSSStyleSheet").New()
		sheets := doc.Get("adoptedStyleSheets")
		sheets.Call("push", filterSheet)
	}
	filterSheet.Call("replaceSync", filterRules(strings.Fields(strings.ToLower(filter))))
	if list := doc.Call("querySelector", "#side .api-list"); list.Truthy() {
		list.Get("dataset").Set("filter", filter)
	}
}

// onFilterKey clears the filter on Escape, opens the first match on Enter and moves to the
// list on ArrowDown.
func (s *sidebar) onFilterKey(ctx app.Context, e app.Event) {
	switch e.Get("key").String() {
	case "Escape":
		s.filter = ""
		applyFilter("")
		ctx.JSSrc().Set("value", "")
		ctx.JSSrc().Call("blur")
	case "Enter":
		if first := firstShownOp(); first.Truthy() {
			ctx.Navigate(first.Get("href").String())
		}
	case "ArrowDown":
		if first := firstShownOp(); first.Truthy() {
			e.PreventDefault()
			first.Call("focus")
		}
	}
}

// firstShownOp returns the first operation link the filter leaves visible, or undefined.
func firstShownOp() app.Value {
	links := app.Window().Get("document").Call("querySelectorAll", "#side a.op-link")
	for i := 0; i < links.Length(); i++ {
		if l := links.Index(i); l.Call("checkVisibility").Bool() {
			return l
		}
	}
	return app.Undefined()
}

// Render implements app.Composer.
func (s *sidebar) Render() app.UI {
	words := strings.Fields(strings.ToLower(s.filter))
	current := ""
	if !app.IsClient { // the browser marks the current page in place (opList)
		current = strings.TrimSuffix(s.Slug+"/"+s.OpID, "/")
	}
	return app.Div().Class("side-body").Body(
		app.Div().Class("filter-box").Body(
			app.Label().For("filter").Class("visually-hidden").Text("Filter operations"),
			app.Input().ID("filter").Type("search").Placeholder("Filter operations").
				Value(s.filter).AutoComplete(false).Spellcheck(false).
				Aria("keyshortcuts", "/").
				OnInput(s.onFilter).OnKeyDown(s.onFilterKey),
			app.Kbd().Class("filter-hint").Aria("hidden", "true").Text("/"),
		),
		app.If(len(words) > 0 && s.Cat != nil && s.shown(words) == 0, func() app.UI {
			return app.P().Class("side-empty").Text("No operation matches “" + s.filter + "”.")
		}),

		newOpList(s.Cat, current),
	)
}

// shown counts the operations that match every word.
func (s *sidebar) shown(words []string) int {
	if s.textOf != s.Cat {
		s.texts, s.textOf = nil, s.Cat
		for i := range s.Cat.APIs {
			a := &s.Cat.APIs[i]
			for j := range a.Operations {
				s.texts = append(s.texts, opText(a, &a.Operations[j]))
			}
		}
	}
	n := 0
	for _, t := range s.texts {
		if containsAll(t, words) {
			n++
		}
	}
	return n
}

// filterRules is the style rule that shows only the operations whose text (opText) contains
// every word, and the APIs that have one; empty without words.
func filterRules(words []string) string {
	if len(words) == 0 {
		return ""
	}
	var m strings.Builder
	for _, w := range words {
		m.WriteString(`[data-text*="` + cssString(w) + `"]`)
	}
	return `.side-body li[data-text]:not(` + m.String() + `),` +
		`.side-body li.api-item:not(:has(li[data-text]` + m.String() + `)),` +
		`.side-body .tag-name, .side-body li:has(> a.ws-link) { display: none; }`
}

// containsAll reports whether text contains every word.
func containsAll(text string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// ariaCurrent is the aria-current value of a link: "page" for the current page.
func ariaCurrent(current bool) string {
	if current {
		return "page"
	}
	return ""
}

// matches reports whether every word occurs in one of the fields.
func matches(words []string, fields ...string) bool {
	if len(words) == 0 {
		return true
	}
	return containsAll(strings.ToLower(strings.Join(fields, " ")), words)
}

// methodBadge renders an HTTP method as a colored badge.
func methodBadge(method string) app.UI {
	return app.Span().Class("method method-" + strings.ToLower(method)).Text(method)
}
