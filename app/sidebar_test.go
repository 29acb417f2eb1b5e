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
	// The filter is a style rule over each row's lower-case text: every word must be in it.
	tests := []struct {
		filter string
		want   []string // the operations the rule leaves shown
	}{
		{"HEALTH get", []string{"cluster/cluster.health"}},
		{"demo", []string{"demo/things.list"}}, // an API's slug matches its operations
		{"/_cluster/", []string{"cluster/cluster.health"}},
		{"post", []string{"demo/things.list"}},
		{"", []string{"demo/things.list", "cluster/cluster.health"}},
		{"nothing-like-this", nil},
	}
	for _, tt := range tests {
		words := strings.Fields(strings.ToLower(tt.filter))
		var got []string
		for _, a := range cat.APIs {
			for i := range a.Operations {
				if containsAll(opText(&a, &a.Operations[i]), words) {
					got = append(got, a.Slug+"/"+a.Operations[i].ID)
				}
			}
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") || s.shown(words) != len(tt.want) {
			t.Errorf("%q: got %v (%d shown); want %v", tt.filter, got, s.shown(words), tt.want)
		}
		rule := filterRules(words)
		for _, w := range words {
			if !strings.Contains(rule, `[data-text*="`+w+`"]`) {
				t.Errorf("%q: the rule %s does not test %q", tt.filter, rule, w)
			}
		}
	}
	if got, want := filterRules(nil), ""; got != want {
		t.Errorf("no filter: got rule %q; want none", got)
	}
	if got := filterRules([]string{`a"]{}b\\`}); !strings.Contains(got, `[data-text*="a\"]{}b\\\\"]`) {
		t.Errorf("a quote in the filter: got rule %s; want it escaped", got)
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
