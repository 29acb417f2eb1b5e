package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
)

func TestSidebarFilter(t *testing.T) {
	cat := &catalog.Catalog{APIs: []catalog.API{
		*fixtureAPI,
		{Slug: "cluster", Title: "Cluster", Operations: []catalog.Operation{
			{ID: "cluster.health", Method: "GET", Path: "/_cluster/health", Summary: "Cluster health"},
		}},
	}}
	s := newSidebar(cat, "cluster", "cluster.health")
	html := app.HTMLString(s)
	for _, want := range []string{`data-op="demo/things.list"`, `data-op="cluster/cluster.health"`, `aria-current="page"`, `id="filter"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the sidebar lacks %s", want)
		}
	}
	s.filter = "HEALTH get"
	html = app.HTMLString(s)
	if strings.Contains(html, `data-op="demo/things.list"`) || !strings.Contains(html, `data-op="cluster/cluster.health"`) {
		t.Errorf("the filter keeps the wrong operations")
	}
	s.filter = "demo"
	if html = app.HTMLString(s); !strings.Contains(html, `data-op="demo/things.list"`) {
		t.Errorf("an API's name does not match its operations")
	}
	s.filter = "nothing-like-this"
	if html = app.HTMLString(s); !strings.Contains(html, "No operation matches") {
		t.Errorf("an empty result says nothing")
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
