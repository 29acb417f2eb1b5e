package app

import (
	"testing"

	"loupe/app/catalog"
)

// TestCardSummary: an API's card shows its info.summary, else (an OpenAPI 3.0 document, which
// has none) the first sentence of its description as text.
func TestCardSummary(t *testing.T) {
	for _, tt := range []struct {
		api  catalog.API
		want string
	}{
		{catalog.API{Summary: "Pets, shortly.", DescriptionHTML: "<p>Long. Text.</p>"}, "Pets, shortly."},
		{catalog.API{DescriptionHTML: `<h1>Mercure</h1><p><a href="https://mercure.rocks" rel="nofollow">Mercure</a> is a protocol. It pushes.</p>`}, "Mercure is a protocol."},
		{catalog.API{}, ""},
	} {
		if got := cardSummary(&tt.api); got != tt.want {
			t.Errorf("cardSummary(%+v) = %q; want %q", tt.api, got, tt.want)
		}
	}
}
