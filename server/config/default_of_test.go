package config

import (
	"maps"
	"slices"
	"testing"
)

// TestDefaultOfIsDefaultForThoseAPIs: the defaults of some built-in APIs are Default's for
// those APIs, credential included, and hold no other API.
func TestDefaultOfIsDefaultForThoseAPIs(t *testing.T) {
	all := Default()
	if err := all.ResolveCredentials(); err != nil {
		t.Fatal(err)
	}
	for _, slugs := range [][]string{{"chat"}, {"script"}, {"cluster", "entities"}, {}} {
		some := DefaultOf(slugs...)
		if err := some.ResolveCredentials(); err != nil {
			t.Fatalf("%v: %v", slugs, err)
		}
		if got := slices.Sorted(maps.Keys(some.APIs)); !slices.Equal(got, slugs) {
			t.Errorf("DefaultOf(%v): got the APIs %v; want those only", slugs, got)
		}
		for _, slug := range slugs {
			got, want := some.APIs[slug].Credential, all.APIs[slug].Credential
			if got.Send != want.Send || got.Name != want.Name || got.Prefix != want.Prefix || got.Secret() != want.Secret() {
				t.Errorf("%s: got the credential %+v; want Default's %+v", slug, got, want)
			}
		}
		if some.Server.Limits != all.Server.Limits {
			t.Errorf("%v: got the limits %+v; want Default's %+v", slugs, some.Server.Limits, all.Server.Limits)
		}
	}
}
