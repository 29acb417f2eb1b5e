package walkthrough

import (
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/ui"
)

func init() {
	ui.AddPage(ui.Page{
		Slug:   strings.TrimPrefix(ui.WalkFilePath, "/"),
		Serves: func(cat *catalog.Catalog, id string) bool { return true },
		Exists: func(cat *catalog.Catalog, id string) bool { return id == "" || find(cat, id) != nil },
		Paths: func(cat *catalog.Catalog) []string {
			paths := []string{ui.WalkFilePath}
			for _, w := range cat.Walkthroughs {
				paths = append(paths, "/walkthroughs/"+w.ID)
				for _, a := range w.Aliases {
					paths = append(paths, "/walkthroughs/"+a)
				}
			}
			return paths
		},
		Render: walkthroughRoute,
	})
	ui.AddAPISection(ui.APISection{Rank: -15, Render: func(cat *catalog.Catalog, a *catalog.API) app.UI { return walkthroughList(cat, a.Slug) }})
	ui.AddOverviewSection(func(cat *catalog.Catalog) app.UI { return walkthroughList(cat, "") })
	ui.AddSideLinks(sideLinks)
}

// find returns the walkthrough of the catalog with the given id or alias, or nil.
func find(cat *catalog.Catalog, id string) *catalog.Walkthrough {
	for i := range cat.Walkthroughs {
		if w := &cat.Walkthroughs[i]; w.ID == id || slices.Contains(w.Aliases, id) {
			return w
		}
	}
	return nil
}

// walkthroughRoute picks the page of /walkthroughs/<id>, or of /walkthroughs: a walkthrough
// file opened in the browser.
func walkthroughRoute(cat *catalog.Catalog, id string) app.UI {
	if id == "" {
		return newWalkFilePage(cat)
	}
	if w := find(cat, id); w != nil {
		p := newWalkthroughPage(w, cat, nil)
		if w.ID != id {
			p.Alias = id // an id it had before: the page moves the address to its own
		}
		return p
	}
	var ids []string
	for _, w := range cat.Walkthroughs {
		ids = append(ids, w.ID)
	}
	return ui.NotFound("There is no walkthrough “" + id + "”. The walkthroughs are: " + strings.Join(ids, ", ") + ".")
}

// walkthroughList links the walkthroughs of one API (slug), or of every API when slug is ""
// (then with the page that runs a walkthrough file).
func walkthroughList(cat *catalog.Catalog, slug string) app.UI {
	if cat == nil {
		return nil
	}
	var items []app.UI
	for _, w := range cat.Walkthroughs {
		if slug != "" && w.API != slug {
			continue
		}
		items = append(items, app.Li().Body(
			app.A().Href(ui.Href("/walkthroughs/"+w.ID)).Text(w.Title),
			app.If(w.Summary != "", func() app.UI { return app.Span().Class("muted").Text(" — " + w.Summary) }),
		))
	}
	if len(items) == 0 && slug != "" {
		return nil
	}
	return app.Section().Class("walk-list").Aria("label", "Walkthroughs").Body(
		app.H2().Text("Walkthroughs"),
		app.P().Class("muted").Text("Runnable first-day tasks: each step is a real request, its values carried into the next."),
		app.If(len(items) > 0, func() app.UI { return app.Ul().Body(items...) }),
		app.If(slug == "", func() app.UI {
			return app.P().Class("walk-file-link").Body(
				app.A().ID("walk-file-link").Href(ui.Href(ui.WalkFilePath)).Text("Run a walkthrough file"),
				app.Span().Class("muted").Text(" — an Arazzo document of your own, one shared with you, or one recorded from the history."),
			)
		}),
	)
}
