package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/ui"
)

// sidebar lists every API and its operations (opList), grouped by tag, with a filter box.
// In the browser the list keeps in the page only the rows near its viewport (opWindow), and
// a keystroke in the filter replaces them in the input event itself, so the next frame shows
// the result whether the catalog lists ten operations or a thousand. The filter box's input
// listener is its own rather than go-app's (OnInput), which would render the sidebar again
// after each keystroke, on a timer that lands before the frame.
type sidebar struct {
	app.Compo

	// Cat is the catalog to list; nil shows placeholders.
	Cat *catalog.Catalog
	// Slug and OpID name the current page, highlighted in the list.
	Slug, OpID string

	filter  string
	list    *opList // Cat's rows, filtered; made on first use
	window  opWindow
	onInput app.Func // the filter box's input listener
}

func newSidebar(cat *catalog.Catalog, slug, opID string) *sidebar {
	return &sidebar{Cat: cat, Slug: slug, OpID: opID}
}

// OnMount shows the list's rows in sight, the current page's among them, and listens to
// the filter box.
func (s *sidebar) OnMount(ctx app.Context) {
	ctx.Defer(func(app.Context) {
		doc := app.Window()
		if ul := doc.GetElementByID("side-list"); ul.Truthy() {
			s.window.mount(ul, s.rows())
		}
		if box := doc.GetElementByID("filter"); box.Truthy() && s.onInput == nil {
			s.onInput = app.FuncOf(func(this app.Value, _ []app.Value) any {
				s.setFilter(this.Get("value").String())
				return nil
			})
			box.Call("addEventListener", "input", s.onInput)
		}
	})
}

// OnDismount stops following the list's scrolling and the filter box.
func (s *sidebar) OnDismount() {
	s.window.dismount()
	if s.onInput != nil {
		if box := app.Window().GetElementByID("filter"); box.Truthy() {
			box.Call("removeEventListener", "input", s.onInput)
		}
		s.onInput.Release()
		s.onInput = nil
	}
}

// OnUpdate lists a new catalog.
func (s *sidebar) OnUpdate(ctx app.Context) {
	if list := s.rows(); s.window.list != list {
		s.window.setList(list, s.filter)
	}
}

// OnNav marks the new current page in the list without re-rendering it.
func (s *sidebar) OnNav(ctx app.Context) { ctx.Defer(func(app.Context) { s.window.markCurrent() }) }

// rows returns the list of Cat's rows with the filter applied, made anew for a new catalog.
func (s *sidebar) rows() *opList {
	if s.list == nil || s.list.cat != s.Cat {
		s.list = newOpList(s.Cat, ui.BasePath())
	}
	s.list.filter(s.filter)
	return s.list
}

// setFilter filters the list and shows its first rows at once, or says that nothing matches.
func (s *sidebar) setFilter(filter string) {
	s.filter = filter
	list := s.rows()
	s.window.setList(list, filter)
	if p := app.Window().GetElementByID("side-empty"); p.Truthy() {
		p.Set("textContent", s.noMatch())
	}
}

// noMatch says that no operation matches the filter, or nothing when one does.
func (s *sidebar) noMatch() string {
	if s.Cat == nil || len(s.list.words) == 0 || len(s.list.matched) > 0 {
		return ""
	}
	return "Nothing matches “" + s.filter + "”."
}

// onFilterKey clears the filter on Escape, opens the first match on Enter and moves to the
// list on ArrowDown.
func (s *sidebar) onFilterKey(ctx app.Context, e app.Event) {
	switch e.Get("key").String() {
	case "Escape":
		s.setFilter("")
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

// firstShownOp returns the first operation link of the list, or undefined: the list holds
// only the rows the filter leaves, from its top after a filter.
func firstShownOp() app.Value {
	return app.Window().Get("document").Call("querySelector", "#side-list a.op-link")
}

// Render implements app.Composer.
func (s *sidebar) Render() app.UI {
	var ops app.UI = app.Ul().ID("side-list").Class("api-list") // opWindow fills it
	if !app.IsClient {
		ops = app.Raw(s.rows().markup(strings.TrimSuffix(s.Slug+"/"+s.OpID, "/")))
	}
	return app.Div().Class("side-body").Body(
		app.Div().Class("filter-box").Body(
			app.Label().For("filter").Class("visually-hidden").Text("Filter operations"),
			app.Input().ID("filter").Type("search").Placeholder("Filter operations").
				Value(s.filter).AutoComplete(false).Spellcheck(false).
				Aria("keyshortcuts", "/").
				OnKeyDown(s.onFilterKey),
			app.Kbd().Class("filter-hint").Aria("hidden", "true").Text("/"),
		),
		// Filled by setFilter, and always there, so that the list after it stays the same element.
		app.P().ID("side-empty").Class("side-empty").Aria("live", "polite"),
		ops,
	)
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

// matches reports whether every word occurs in one of the fields.
func matches(words []string, fields ...string) bool {
	if len(words) == 0 {
		return true
	}
	return containsAll(strings.ToLower(strings.Join(fields, " ")), words)
}
