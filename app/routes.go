// Package app is the shell of Loupe's user interface: the routes (Routes, IsPage, Pages), the
// catalog it loads and gives every page, the layout (sidebar, account menu, mode banner) and
// the pages every API has (the overview, an API's page, an operation's, which app/op shows).
// It compiles into the wasm (wasm/) and into the server, which prerenders the same routes.
// The rest of the UI is in packages of their own (see layout_test.go): shared code (app/ui,
// app/op, app/chatstream), one package per feature, which registers with the shared code
// (features.go imports them), and pure packages tested natively. The shell may import them all.
package app

import (
	"strings"
	"sync/atomic"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/ui"
)

// Routes registers every page of the app. Call it once, in the wasm and in the server. In the
// browser it first repairs an unparseable address (see ui.GuardLocation) and loads the catalog
// (see preloadCatalog).
func Routes() {
	ui.GuardLocation()
	ui.ConfigureTransport()
	preloadCatalog()
	app.Route("/", func() app.Composer { return newShell() })
	// /<slug>, /<slug>/<operationId> and /walkthroughs/<id>.
	app.RouteWithRegexp(`^/[a-z]+(/[^/]+)?/?$`, func() app.Composer { return newShell() })
	// Any other path: the shell's not-found page (the server answers it with 404).
	app.RouteWithRegexp(`^/.+$`, func() app.Composer { return newShell() })
}

// prerenderCatalog is the catalog the server prerenders pages with; nil in the browser.
var prerenderCatalog atomic.Pointer[catalog.Catalog]

// UseCatalog gives the server-side renderer the compiled catalog, so prerendered pages show
// every API and operation before the wasm runs; the server calls it again when a reload changes
// the catalog (the walkthroughs of its configuration), and pages prerendered from then on show
// the new one. It is safe for concurrent use with rendering. The browser loads /catalog.json
// instead.
func UseCatalog(c *catalog.Catalog) { prerenderCatalog.Store(c) }

// serverCatalog returns the catalog UseCatalog gave, or nil.
func serverCatalog() *catalog.Catalog { return prerenderCatalog.Load() }

// IsPage reports whether path (root-relative, without the site's base) names a page of the
// app: the overview, an API's guide, one of its operations or its workspace, a walkthrough, or
// the history.
// It follows the shell's own routing, so the server can answer any other path 404.
func IsPage(cat *catalog.Catalog, path string) bool {
	if path == "/" {
		return true
	}
	if strings.Count(strings.Trim(path, "/"), "/") > 1 {
		return false
	}
	slug, opID := parseRoute(path)
	if p := ui.PageAt(cat, slug, opID); p != nil {
		return p.Exists == nil || p.Exists(cat, opID)
	}
	a := cat.API(slug)
	switch {
	case a == nil:
		return false
	case opID == "":
		return true
	}
	if p := ui.APIPageOf(a.Slug); p != nil && opID == p.ID {
		return true
	}
	return a.Operation(opID) != nil
}

// Pages lists the path of every page of the app, the overview first: what IsPage accepts,
// for the static explorer to prerender.
func Pages(cat *catalog.Catalog) []string {
	pages := []string{"/"}
	for _, a := range cat.APIs {
		pages = append(pages, "/"+a.Slug)
		if p := ui.APIPageOf(a.Slug); p != nil {
			pages = append(pages, "/"+a.Slug+"/"+p.ID)
		}
		for _, op := range a.Operations {
			pages = append(pages, "/"+a.Slug+"/"+op.ID)
		}
	}
	for _, p := range ui.Pages() {
		pages = append(pages, p.Paths(cat)...)
	}
	return pages
}
