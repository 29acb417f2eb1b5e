package server

import (
	"strings"
	"testing"

	"loupe/content"
)

// TestLoadCatalogCarriesTheWalkthroughs: the catalog both the server and the static site serve
// lists every walkthrough, so the static site prerenders their pages and its sandbox module
// can judge their steps.
func TestLoadCatalogCarriesTheWalkthroughs(t *testing.T) {
	cat, walks, err := loadCatalog(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range cat.Walkthroughs {
		got = append(got, w.ID)
	}
	if want := strings.Join(walks.IDs(), ","); strings.Join(got, ",") != want || want == "" {
		t.Errorf("got walkthroughs %v in the catalog; want %s", got, want)
	}
	if !strings.HasSuffix(cat.Version, "-"+walks.Version()) {
		t.Errorf("got version %q; want it to follow the walkthroughs (%s)", cat.Version, walks.Version())
	}
}
