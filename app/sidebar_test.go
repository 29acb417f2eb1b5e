package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/internal/apptest"
)

func TestSidebarSaysWhenNothingMatches(t *testing.T) {
	cat := &catalog.Catalog{APIs: []catalog.API{*apptest.FixtureAPI}}
	s := newSidebar(cat, "demo", "things.list")
	html := app.HTMLString(s)
	for _, want := range []string{`data-op="demo/things.list"`, `aria-current="page"`, `id="filter"`, `id="side-list"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the sidebar lacks %s", want)
		}
	}
	for filter, want := range map[string]string{
		"":                  "",
		"things":            "",
		"nothing-like-this": "Nothing matches “nothing-like-this”.",
	} {
		s.filter = filter
		s.rows()
		if got := s.noMatch(); got != want {
			t.Errorf("filter %q: got %q; want %q", filter, got, want)
		}
	}
}

func TestParseRoute(t *testing.T) {
	for path, want := range map[string][2]string{
		"/":                                 {"", ""},
		"/cluster":                          {"cluster", ""},
		"/cluster/":                         {"cluster", ""},
		"/cluster/cluster.health":           {"cluster", "cluster.health"},
		"/script/projects.deployments.list": {"script", "projects.deployments.list"},
		"/x/a%20b":                          {"x", "a b"},
	} {
		slug, op := parseRoute(path)
		if slug != want[0] || op != want[1] {
			t.Errorf("parseRoute(%q) = %q, %q", path, slug, op)
		}
	}
}
