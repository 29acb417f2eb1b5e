package app

import (
	"encoding/json"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/ui"
)

// pageCatalogID is the id of the <script type="application/json"> a prerendered page carries its
// page catalog in (see pageCatalog). The wasm reads it before its first render, so an operation
// page starts without fetching and decoding the whole catalog (about 1 MB of JSON, of which the
// page shows a few percent); the rest arrives from /catalog.json once the page runs.
const pageCatalogID = "loupe-page-catalog"

// pageCatalog returns what the first render of the page at path (root-relative) reads of cat:
// a copy whose operations are listed partially (catalog.Operation.Index) but for the one the page
// shows, whose response schemas keep only their name (the page shows no more of them); whose
// APIs keep their guide only on the API's own page and, on an API's or an operation's page, the
// other APIs only what the sidebar shows; and whose walkthroughs are listed by what their links
// show. It returns nil for the pages that read more (a walkthrough runs its steps' operations,
// the workspace and the history read every operation) and for paths that are not pages: those
// load the whole catalog. The wasm decodes it before its first render, so each kilobyte left
// out is start-up time saved (about 0.7 ms in the browser).
func pageCatalog(cat *catalog.Catalog, path string) *catalog.Catalog {
	if cat == nil || cat.Page != "" || !IsPage(cat, path) {
		return nil
	}
	slug, opID := parseRoute(path)
	if p := ui.APIPageOf(slug); ui.PageAt(cat, slug, opID) != nil || p != nil && opID == p.ID {
		return nil
	}
	out := *cat
	out.Page = "/" + strings.Trim(path, "/")
	out.APIs = make([]catalog.API, len(cat.APIs))
	for i, a := range cat.APIs {
		ops := make([]catalog.Operation, len(a.Operations))
		for j := range a.Operations {
			op := &a.Operations[j]
			if a.Slug == slug && op.ID == opID {
				ops[j] = withSchemaNames(*op)
			} else {
				ops[j] = op.Index()
			}
		}
		a.Operations = ops
		if a.Slug != slug || opID != "" {
			a.GuideHTML = ""
		}
		if slug != "" && a.Slug != slug {
			a.DescriptionHTML, a.Security, a.Servers = "", nil, nil
		}
		out.APIs[i] = a
	}
	out.Walkthroughs = make([]catalog.Walkthrough, len(cat.Walkthroughs))
	for i, w := range cat.Walkthroughs {
		out.Walkthroughs[i] = catalog.Walkthrough{ID: w.ID, API: w.API, Title: w.Title, Summary: w.Summary}
	}
	return &out
}

// withSchemaNames returns op with the schema of each response cut down to its name (what the
// operation page shows of it).
func withSchemaNames(op catalog.Operation) catalog.Operation {
	rs := make([]catalog.Response, len(op.Responses))
	for i, r := range op.Responses {
		if r.Schema != nil {
			r.Schema = &catalog.Schema{Ref: r.Schema.Ref}
		}
		rs[i] = r
	}
	op.Responses = rs
	return op
}

// renderPageCatalog is, on the server, the page catalog of the current page in a JSON script
// element (json.Marshal escapes <, > and &, so the text cannot close the element), or nothing
// for a page that needs the whole catalog at once. In the browser it is nothing: the wasm has
// read the element before it renders.
func (s *shell) renderPageCatalog() app.UI {
	prerendered := serverCatalog()
	if app.IsClient || prerendered == nil || s.cat != prerendered {
		return nil
	}
	page := "/" + s.slug
	if s.opID != "" {
		page += "/" + s.opID
	}
	if pc := pageCatalog(prerendered, page); pc != nil {
		if b, err := json.Marshal(pc); err == nil {
			return app.Raw(`<script type="application/json" id="` + pageCatalogID + `">` + string(b) + `</script>`)
		}
	}
	return nil
}

// readPageCatalog decodes the page catalog the prerendered page carries, or returns nil when it
// has none (or it cannot be read: the app then fetches the whole catalog).
func readPageCatalog() *catalog.Catalog {
	el := app.Window().GetElementByID(pageCatalogID)
	if !el.Truthy() {
		return nil
	}
	cat, err := catalog.Decode([]byte(el.Get("textContent").String()))
	if err != nil || cat.Page == "" {
		return nil
	}
	return cat
}

// completeCatalog puts what the whole catalog full has and the page catalog cur left out in
// place in cur (the guides, the operations listed partially), so that the pointers the
// components hold stay valid and the page on screen does not change. It reports false, changing
// nothing, when full is not the same catalog (another version): the caller then replaces cur.
func completeCatalog(cur, full *catalog.Catalog) bool {
	if cur.Version != full.Version || len(cur.APIs) != len(full.APIs) {
		return false
	}
	for i := range cur.APIs {
		a, f := &cur.APIs[i], &full.APIs[i]
		if a.Slug != f.Slug || len(a.Operations) != len(f.Operations) {
			return false
		}
		for j := range a.Operations {
			if a.Operations[j].ID != f.Operations[j].ID {
				return false
			}
		}
	}
	for i := range cur.APIs {
		a, f := &cur.APIs[i], &full.APIs[i]
		ops := a.Operations
		*a = *f
		a.Operations = ops
		for j := range ops {
			if !f.Operations[j].Partial { // the page's own operation too: its response schemas
				ops[j] = f.Operations[j]
			}
		}
	}
	cur.Walkthroughs, cur.Page = full.Walkthroughs, ""
	return true
}
