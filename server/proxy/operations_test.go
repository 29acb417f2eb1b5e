package proxy

import (
	"testing"

	"loupe/app/catalog"
)

// TestMatchUnderTheBasePath: a path is matched as the call gives it, and only when that matches
// nothing, with the base URL's path in front (a document whose path keys hold what the base URL
// already says); the values' places are those in the path that matched.
func TestMatchUnderTheBasePath(t *testing.T) {
	ops := newOperations(&catalog.API{Operations: []catalog.Operation{
		{ID: "short", Method: "GET", Path: "/items/{id}"},
		{ID: "long", Method: "GET", Path: "/api/v2/things/{id}"},
	}})
	tests := []struct {
		base, path string
		want       string // "" for no match
		value      string // the first variable's value
	}{
		{"/api/v2", "/items/7", "short", "7"},
		{"/api/v2", "/things/8", "long", "8"},
		{"", "/api/v2/things/9", "long", "9"},
		{"", "/things/8", "", ""},
		{"/api/v3", "/things/8", "", ""},
		{"/api%20v2", "/items/7", "short", "7"},
		{"/api v2", "/things/8", "", ""},
	}
	for _, tt := range tests {
		m, ok := ops.match("GET", tt.base, tt.path, "", nil)
		if got := m.id; got != tt.want || ok != (tt.want != "") {
			t.Errorf("base %q, path %q: got %q %v; want %q", tt.base, tt.path, got, ok, tt.want)
			continue
		}
		if !ok {
			continue
		}
		s := m.spans()[0]
		if got := m.path[s[0]:s[1]]; got != tt.value {
			t.Errorf("base %q, path %q: value: got %q; want %q", tt.base, tt.path, got, tt.value)
		}
	}
}
