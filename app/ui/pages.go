package ui

import (
	"sort"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
)

// This file holds what features add to the shell's pages, registered from their init
// functions: pages of their own, a page beside an API's operations, sections of an API's page
// and of the overview. The shell (package app) reads them; a feature never names another.

// Page is a page a feature adds at /<Slug> or /<Slug>/<id> (the history, a walkthrough). The
// shell routes to it before the APIs, titles it, lists it for the static explorer (Pages) and
// links it in the sidebar; such a page always starts from the whole catalog.
type Page struct {
	// Slug is the first segment of the page's path.
	Slug string
	// Serves reports whether the page shows /<Slug>/<id> (id "" for /<Slug>) in cat; when it
	// does not, the path is left to the APIs (an API's guide or not found). Required.
	Serves func(cat *catalog.Catalog, id string) bool
	// Exists reports whether a path the page serves is one the server answers (IsPage); nil
	// means every path it serves is.
	Exists func(cat *catalog.Catalog, id string) bool
	// Paths lists the page's paths in cat, for the static explorer to prerender. Required.
	Paths func(cat *catalog.Catalog) []string
	// Title is the document title; "" leaves the shell's title for a path no API names.
	Title string
	// Render renders the main pane of /<Slug>/<id>. Required.
	Render func(cat *catalog.Catalog, id string) app.UI
	// Link renders the page's link in the sidebar, below the APIs, given the current route
	// (/<slug>/<id>); nil for none.
	Link func(slug, id string) app.UI
}

// pages holds the registered pages, ordered by Slug.
var pages []Page

// AddPage registers p. Call it from an init function.
func AddPage(p Page) {
	pages = append(pages, p)
	sort.SliceStable(pages, func(i, j int) bool { return pages[i].Slug < pages[j].Slug })
}

// Pages returns the registered pages, ordered by Slug.
func Pages() []Page { return pages }

// PageAt returns the registered page that serves /<slug>/<id> in cat, or nil.
func PageAt(cat *catalog.Catalog, slug, id string) *Page {
	for i := range pages {
		if p := &pages[i]; p.Slug == slug && p.Serves(cat, id) {
			return p
		}
	}
	return nil
}

// APIPage is a page a feature adds beside one API's operations, at /<API>/<ID> (the script
// workspace): the shell routes to it before the API's operations, lists it for the static
// explorer and shows it in the sidebar right under the API's title. An API has at most one.
type APIPage struct {
	// API is the API's slug and ID the second segment of the page's path.
	API, ID string
	// Label is the page's row in the sidebar.
	Label string
	// Render renders the main pane for a, the API named API. Required.
	Render func(a *catalog.API) app.UI
}

// apiPages holds the registered API pages by API slug.
var apiPages = map[string]*APIPage{}

// AddAPIPage registers p, replacing the API's earlier one. Call it from an init function.
func AddAPIPage(p APIPage) { apiPages[p.API] = &p }

// APIPageOf returns the page registered beside the operations of the API slug, or nil.
func APIPageOf(slug string) *APIPage { return apiPages[slug] }

// SideLink is a row a feature adds to one API's part of the sidebar, right under its title and
// workspace (a walkthrough of that API), found by the sidebar's filter like an operation.
type SideLink struct {
	// Path is the page's path, "/walkthroughs/<id>"; Label is the row's text; Badge is the
	// short word shown where an operation shows its method ("walk").
	Path, Label, Badge string
	// Search holds more words the filter matches besides the label ("walkthrough", a summary).
	Search string
}

// SideLinks returns the rows a feature adds under API a of cat, in order; nil for none.
type SideLinks func(cat *catalog.Catalog, a *catalog.API) []SideLink

// sideLinks holds the registered row makers, in the order they were added.
var sideLinks []SideLinks

// AddSideLinks registers f. Call it from an init function.
func AddSideLinks(f SideLinks) { sideLinks = append(sideLinks, f) }

// SideLinksOf returns every row the features add under API a of cat.
func SideLinksOf(cat *catalog.Catalog, a *catalog.API) []SideLink {
	var out []SideLink
	for _, f := range sideLinks {
		out = append(out, f(cat, a)...)
	}
	return out
}

// APISection is a section a feature adds to every API's page (the OAuth sign-in panel, a link
// to the API's workspace, its walkthroughs).
type APISection struct {
	// Rank places the section: below 0 between the API's facts and its guide, above 0 after
	// the guide; lower ranks first.
	Rank int
	// Render renders the section for a, given the catalog the app shows (nil before it is
	// loaded); nil when it has none for a.
	Render func(cat *catalog.Catalog, a *catalog.API) app.UI
}

// apiSections holds the registered sections, ordered by Rank.
var apiSections []APISection

// AddAPISection registers s. Call it from an init function.
func AddAPISection(s APISection) {
	apiSections = append(apiSections, s)
	sort.SliceStable(apiSections, func(i, j int) bool { return apiSections[i].Rank < apiSections[j].Rank })
}

// APISections returns the registered sections, ordered by Rank.
func APISections() []APISection { return apiSections }

// OverviewSection renders a section a feature adds to the overview, between its introduction
// and the APIs' cards (every walkthrough), given the catalog; nil when it has none.
type OverviewSection func(cat *catalog.Catalog) app.UI

// overviewSections holds the registered sections, in the order they were added.
var overviewSections []OverviewSection

// AddOverviewSection registers s. Call it from an init function.
func AddOverviewSection(s OverviewSection) { overviewSections = append(overviewSections, s) }

// OverviewSections returns the registered sections, in the order they were added.
func OverviewSections() []OverviewSection { return overviewSections }
