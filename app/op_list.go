package app

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
)

// opList is the sidebar's list of every API and its operations, grouped by tag. It renders
// once per catalog: the filter hides operations with a style rule (see sidebar.filterRules)
// and the current page is marked in place (markCurrent, from the sidebar's OnNav), so neither
// a keystroke in the filter nor opening an operation re-renders a list that may hold a
// thousand operations. It has no OnNav itself: go-app re-renders a component after each of
// its event handlers.
type opList struct {
	app.Compo

	// Cat is the catalog to list.
	Cat *catalog.Catalog
	// Current names the current page ("<api>" or "<api>/<operationId>") when the server
	// prerenders it; empty in the browser, which marks it in place.
	Current string
}

func newOpList(cat *catalog.Catalog, current string) *opList {
	return &opList{Cat: cat, Current: current}
}

// OnMount marks the current page and scrolls it into view in a long list. Only the list
// scrolls: scrollIntoView would scroll the page too, and open it scrolled down.
func (l *opList) OnMount(ctx app.Context) {
	ctx.Defer(func(app.Context) {
		el := markCurrent()
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

// markCurrent sets aria-current="page" on the sidebar link of the page the address names,
// and removes it from any other, and returns that link (undefined when there is none).
func markCurrent() app.Value {
	doc := app.Window().Get("document")
	old := doc.Call("querySelectorAll", "#side .api-list [aria-current]")
	for i := 0; i < old.Length(); i++ {
		old.Index(i).Call("removeAttribute", "aria-current")
	}
	u := app.Window().URL()
	if u == nil {
		return app.Undefined()
	}
	slug, opID := parseRoute(stripBase(u.Path))
	sel := `#side a.api-link[data-api="` + cssString(slug) + `"]`
	if opID != "" {
		sel = `#side a.op-link[data-op="` + cssString(slug+"/"+opID) + `"]`
	}
	el := doc.Call("querySelector", sel)
	if el.Truthy() {
		el.Call("setAttribute", "aria-current", "page")
	}
	return el
}

// Render implements app.Composer.
func (l *opList) Render() app.UI {
	var apis []app.UI
	if l.Cat != nil {
		base := basePath() // once: each call asks the browser
		for i := range l.Cat.APIs {
			apis = append(apis, l.renderAPI(base, &l.Cat.APIs[i]))
		}
	}
	return app.Ul().Class("api-list").Body(apis...)
}

// renderAPI renders one API and its operations; base is the site's sub-path (basePath).
func (l *opList) renderAPI(base string, a *catalog.API) app.UI {
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
	for i := range a.Operations {
		op := &a.Operations[i]
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
		g.ops = append(g.ops, l.renderOp(base, a, op))
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
	if a.Slug == "script" {
		body = append([]app.UI{workspaceLink(l.Current == a.Slug+"/"+workspaceOpID)}, body...)
	}
	return app.Li().Class("api-item").Body(
		app.A().Class("api-link").Href(base+"/"+a.Slug).DataSet("api", a.Slug).
			Aria("current", ariaCurrent(l.Current == a.Slug)).
			Body(app.Span().Class("api-title").Text(a.Title), app.Span().Class("api-count").Text(len(a.Operations))),
		app.Ul().Class("op-list").Body(body...),
	)
}

func (l *opList) renderOp(base string, a *catalog.API, op *catalog.Operation) app.UI {
	label := op.Summary
	if label == "" {
		label = op.ID
	}
	cls := "op-link"
	if op.Deprecated {
		cls += " deprecated"
	}
	return app.Li().DataSet("text", opText(a, op)).Body(
		app.A().Class(cls).Href(base+"/"+a.Slug+"/"+op.ID).DataSet("op", a.Slug+"/"+op.ID).
			Title(op.Method+" "+op.Path+" — "+op.ID).
			Aria("current", ariaCurrent(l.Current == a.Slug+"/"+op.ID)).Body(
			methodBadge(op.Method),
			app.Span().Class("op-label").Text(label),
		),
	)
}

// opText is what the filter searches for an operation, lower case: its API's slug and title,
// its operationId, summary, path, method and tags.
func opText(a *catalog.API, op *catalog.Operation) string {
	return strings.ToLower(strings.Join([]string{a.Slug, a.Title, op.ID, op.Summary, op.Path, op.Method, strings.Join(op.Tags, " ")}, " "))
}

// cssString escapes s for a double-quoted CSS string.
func cssString(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\` + strconv.FormatInt(int64(r), 16) + " ")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
