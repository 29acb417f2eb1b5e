package app

import (
	"testing"

	"loupe/app/catalog"
)

func testCatalog() *catalog.Catalog {
	return &catalog.Catalog{
		APIs: []catalog.API{
			{Slug: "script", Title: "Script", Operations: []catalog.Operation{{ID: "projects.create"}}},
			{Slug: "docs", Title: "Docs", Operations: []catalog.Operation{{ID: "listProjects"}}},
		},
		Walkthroughs: []catalog.Walkthrough{{ID: "docs-find-a-section", API: "docs", Aliases: []string{"docs-old-name"}}},
	}
}

// TestEveryListedPageIsAPage: what the static explorer prerenders is what the server serves.
func TestEveryListedPageIsAPage(t *testing.T) {
	cat := testCatalog()
	for _, p := range Pages(cat) {
		if !IsPage(cat, p) {
			t.Errorf("IsPage(%q): got false; want true for a listed page", p)
		}
	}
	if got, want := len(Pages(cat)), 10; got != want { // with /walkthroughs and an alias
		t.Errorf("pages: got %d (%v); want %d", got, Pages(cat), want)
	}
}

func TestIsPage(t *testing.T) {
	cat := testCatalog()
	tests := []struct {
		path string
		want bool
	}{
		{"/", true},
		{"/docs", true},
		{"/docs/", true},
		{"/docs/listProjects", true},
		{"/script/workspace", true},
		{"/walkthroughs/docs-find-a-section", true},
		{"/walkthroughs/nope", false},
		{"/walkthroughs/docs-old-name", true}, // an id it had before a rename
		{"/walkthroughs", true},               // runs a walkthrough file opened in the browser
		{"/history", true},
		{"/history/x", false},
		{"/docs/workspace", false},
		{"/docs/listProjects/extra", false},
		{"/nope", false},
	}
	for _, tt := range tests {
		if got := IsPage(cat, tt.path); got != tt.want {
			t.Errorf("IsPage(%q): got %v; want %v", tt.path, got, tt.want)
		}
	}
}
