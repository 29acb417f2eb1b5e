package snippet

import (
	"strings"
	"testing"

	"loupe/app/catalog"
)

// TestHeldPerOperation: for an API of your own whose credentials go per operation, the preview
// shows what the proxy sends (server/security.go): the first requirement whose every scheme the
// server holds, nothing for security: [] or when none is met (the proxy refuses the call then).
func TestHeldPerOperation(t *testing.T) {
	api := &catalog.API{Own: true, SecurityPerOperation: true, HeldSchemes: []string{"storeKey"}, Security: []catalog.SecurityScheme{
		{Name: "storeKey", Type: "apiKey", In: "header", ParamName: "X-Store-Key"},
		{Name: "adminToken", Type: "http", Scheme: "bearer"},
	}}
	req := func(schemes ...string) catalog.SecurityRequirement {
		var r catalog.SecurityRequirement
		for _, s := range schemes {
			r.Schemes = append(r.Schemes, catalog.SchemeScopes{Scheme: s})
		}
		return r
	}
	for _, tt := range []struct {
		name     string
		security []catalog.SecurityRequirement
		want     string
	}{
		{"the held scheme", []catalog.SecurityRequirement{req("storeKey")}, "X-Store-Key: ‹held by the server›"},
		{"a scheme not held, then one held", []catalog.SecurityRequirement{req("adminToken"), req("storeKey")}, "X-Store-Key: ‹held by the server›"},
		{"only a scheme not held", []catalog.SecurityRequirement{req("adminToken")}, ""},
		{"both at once, one not held", []catalog.SecurityRequirement{req("storeKey", "adminToken")}, ""},
		{"security: []", nil, ""},
	} {
		var got []string
		for _, c := range Held(api, &catalog.Operation{Security: tt.security}) {
			got = append(got, c.String())
		}
		if strings.Join(got, "; ") != tt.want {
			t.Errorf("%s: held %q; want %q", tt.name, got, tt.want)
		}
	}
	// No scheme held (no credential configured for a real upstream): nothing is shown.
	api.HeldSchemes = nil
	if got := Held(api, &catalog.Operation{Security: []catalog.SecurityRequirement{req("storeKey")}}); len(got) != 0 {
		t.Errorf("nothing held: got %v; want no credential shown", got)
	}
}
