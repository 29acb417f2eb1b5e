package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
)

// sidebar lists every API and its operations, grouped by tag, with a filter box.
type sidebar struct {
	app.Compo

	// Cat is the catalog to list; nil shows placeholders.
	Cat *catalog.Catalog
	// Slug and OpID name the current page, highlighted in the list.
	Slug, OpID string

	filter string
}

func newSidebar(cat *catalog.Catalog, slug, opID string) *sidebar {
	return &sidebar{Cat: cat, Slug: slug, OpID: opID}
}

// OnMount scrolls the current operation into view in a long sidebar. Only the list scrolls:
// scrollIntoView would scroll the page too, and open it scrolled down.
func (s *sidebar) OnMount(ctx app.Context) {
	ctx.Defer(func(app.Context) {
		el := app.Window().Get("document").Call("querySelector", `#side a[aria-current="page"]`)
		if !el.Truthy() {
			return
		}
		list := el.Call("closest", ".api-list")
		if !list.Truthy() {
			return
		}
		box, at := list.Call("getBoundingClientRect"), el.Call("getBoundingClientRect")
		top := at.Get("top").Float() - box.Get("top").Float()
		if height := box.Get("height").Float(); top < 0 || top+at.Get("height").Float() > height {
			list.Set("scrollTop", list.Get("scrollTop").Float()+top-height/2)
		}
	})
}

func (s *sidebar) onFilter(ctx app.Context, e app.Event) {
	s.filter = ctx.JSSrc().Get("value").String()
}

// onFilterKey clears the filter on Escape, opens the first match on Enter and moves to the
// list on ArrowDown.
func (s *sidebar) onFilterKey(ctx app.Context, e app.Event) {
	switch e.Get("key").String() {
	case "Escape":
		s.filter = ""
		ctx.JSSrc().Set("value", "")
		ctx.JSSrc().Call("blur")
	case "Enter":
		if first := app.Window().Get("document").Call("querySelector", "#side a.op-link"); first.Truthy() {
			ctx.Navigate(first.Get("href").String())
		}
	case "ArrowDown":
		if first := app.Window().Get("document").Call("querySelector", "#side a.op-link"); first.Truthy() {
			e.PreventDefault()
			first.Call("focus")
		}
	}
}

// Render implements app.Composer.
func (s *sidebar) Render() app.UI {
	var apis []app.UI
	shown := 0
	if s.Cat != nil {
		words := strings.Fields(strings.ToLower(s.filter))
		for i := range s.Cat.APIs {
			a := &s.Cat.APIs[i]
			ui, n := s.renderAPI(a, words)
			shown += n
			if ui != nil {
				apis = append(apis, ui)
			}
		}
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
		app.If(s.filter != "" && shown == 0, func() app.UI {
			return app.P().Class("side-empty").Text("No operation matches “" + s.filter + "”.")
		}),
		app.Ul().Class("api-list").DataSet("filter", s.filter).Body(apis...),
	)
}

// renderAPI renders one API and its operations matching every word; nil when nothing matches.
func (s *sidebar) renderAPI(a *catalog.API, words []string) (app.UI, int) {
	apiMatches := matches(words, a.Slug, a.Title)
	type group struct {
		name string
		ops  []app.UI
	}
	var groups []*group
	byName := map[string]*group{}
	for _, t := range a.Tags {
		g := &group{name: t.Name}
		groups = append(groups, g)
		byName[t.Name] = g
	}
	n := 0
	for i := range a.Operations {
		op := &a.Operations[i]
		if !apiMatches && !matches(words, op.ID, op.Summary, op.Path, op.Method, strings.Join(op.Tags, " ")) {
			continue
		}
		tag := ""
		if len(op.Tags) > 0 {
			tag = op.Tags[0]
		}
		g := byName[tag]
		if g == nil {
			g = &group{name: tag}
			groups = append(groups, g)
			byName[tag] = g
		}
		g.ops = append(g.ops, s.renderOp(a, op))
		n++
	}
	if n == 0 && !apiMatches {
		return nil, 0
	}
	var body []app.UI
	for _, g := range groups {
		if len(g.ops) == 0 {
			continue
		}
		if g.name != "" && len(groups) > 1 {
			body = append(body, app.Li().Class("tag-name").Text(g.name))
		}
		body = append(body, g.ops...)
	}
	if a.Slug == "script" && len(words) == 0 {
		body = append([]app.UI{workspaceLink(s.Slug == a.Slug && s.OpID == workspaceOpID)}, body...)
	}
	current := a.Slug == s.Slug
	return app.Li().Class("api-item").Body(
		app.A().Class("api-link").Href(href("/"+a.Slug)).DataSet("api", a.Slug).
			Aria("current", ariaCurrent(current && s.OpID == "")).
			Body(app.Span().Class("api-title").Text(a.Title), app.Span().Class("api-count").Text(len(a.Operations))),
		app.Ul().Class("op-list").Body(body...),
	), n
}

func (s *sidebar) renderOp(a *catalog.API, op *catalog.Operation) app.UI {
	current := a.Slug == s.Slug && op.ID == s.OpID
	label := op.Summary
	if label == "" {
		label = op.ID
	}
	cls := "op-link"
	if op.Deprecated {
		cls += " deprecated"
	}
	return app.Li().Body(
		app.A().Class(cls).Href(href("/"+a.Slug+"/"+op.ID)).DataSet("op", a.Slug+"/"+op.ID).
			Title(op.Method+" "+op.Path+" — "+op.ID).
			Aria("current", ariaCurrent(current)).Body(
			methodBadge(op.Method),
			app.Span().Class("op-label").Text(label),
		),
	)
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
	text := strings.ToLower(strings.Join(fields, " "))
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// methodBadge renders an HTTP method as a colored badge.
func methodBadge(method string) app.UI {
	return app.Span().Class("method method-" + strings.ToLower(method)).Text(method)
}
