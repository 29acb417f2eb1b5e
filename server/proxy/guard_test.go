package proxy

import (
	"net/http"
	"strings"
	"testing"
)

// TestPercentEncodedUTF8PathValues: a path value in any script, percent-encoded as UTF-8, is
// a plain value and passes the guard; bytes that are not UTF-8, overlong forms, surrogates,
// look-alikes of dots and slashes, raw non-ASCII and the path tricks beside a UTF-8 value are
// still refused.
func TestPercentEncodedUTF8PathValues(t *testing.T) {
	tests := []struct {
		name, path string
		wantPass   bool
	}{
		{"é, two bytes", "/_cluster/health/caf%C3%A9", true},
		{"lower-case hex", "/_cluster/health/caf%c3%a9", true},
		{"CJK, three bytes", "/_sandbox/indices/%E6%9D%B1%E4%BA%AC", true},
		{"Cyrillic", "/v1/projects/%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0", true},
		{"emoji, four bytes", "/items/%F0%9F%98%80/", true},
		{"with an encoded space", "/b/o/na%C3%AFve%20caf%C3%A9.txt", true},
		{"in two segments", "/users/caf%C3%A9/applications/%E6%9D%B1", true},
		{"truncated sequence", "/x/caf%C3", false},
		{"bad continuation byte", "/x/%C3%28", false},
		{"a byte UTF-8 never uses", "/x/%FF", false},
		{"lone continuation byte", "/x/%A9", false},
		{"overlong dot, two bytes", "/x/%C0%AE%C0%AE/y", false},
		{"overlong dot, three bytes", "/x/%E0%80%AE/y", false},
		{"overlong slash", "/x/%C0%AF/y", false},
		{"UTF-16 surrogate", "/x/%ED%A0%80", false},
		{"full-width dots", "/x/%EF%BC%8E%EF%BC%8E/y", false},
		{"division slash", "/x/%E2%88%95evil", false},
		{"ideographic full stop", "/x/%E3%80%82%E3%80%82/y", false},
		{"raw é", "/x/café", false},
		{"dot segment after a UTF-8 value", "/x/caf%C3%A9/../y", false},
		{"encoded dots after a UTF-8 value", "/x/caf%C3%A9/%2e%2e/y", false},
		{"encoded slash outside a documented value", "/x/caf%C3%A9%2F..", false},
		{"encoded backslash", "/x/caf%C3%A9%5c..", false},
		{"double-encoded dots", "/x/%25C3%25A9/%252e%252e", false},
	}
	for _, tt := range tests {
		ref := checkRest(tt.path)
		if got := ref == nil; got != tt.wantPass {
			why := ""
			if ref != nil {
				why = ref.message
			}
			t.Errorf("%s: %s: got pass %v (%s); want pass %v", tt.name, tt.path, got, why, tt.wantPass)
		}
	}
}

// TestOverrideHeadersAreRefused: a request with a header that changes the method or path
// upstream is refused naming it, whether it carries few other headers (each looked up) or
// many (each override name looked up); with two, the first in overrideHeaders is named.
func TestOverrideHeadersAreRefused(t *testing.T) {
	few := http.Header{"User-Agent": {"curl"}}
	many := http.Header{}
	for _, name := range []string{"Accept", "Accept-Language", "Content-Type", "Origin", "Referer", "Sec-Fetch-Site",
		"Sec-Fetch-Mode", "Sec-Fetch-Dest", "User-Agent", "X-Loupe-Cookie"} {
		many[name] = []string{"x"}
	}
	for _, others := range []http.Header{{}, few, many} {
		if ref := checkHeaders(others); ref != nil {
			t.Errorf("%d headers, none an override: got %q; want none refused", len(others), ref.message)
		}
		for _, name := range overrideHeaders {
			h := others.Clone()
			h[name] = []string{"DELETE"}
			ref := checkHeaders(h)
			if ref == nil || ref.status != http.StatusBadRequest || !strings.Contains(ref.message, "the "+name+" header") {
				t.Errorf("%d headers and %s: got %+v; want 400 naming it", len(others), name, ref)
			}
		}
		h := others.Clone()
		h["X-Forwarded-Prefix"], h["X-Http-Method-Override"] = []string{"/"}, []string{"PUT"}
		if ref := checkHeaders(h); ref == nil || !strings.Contains(ref.message, "X-Http-Method-Override") {
			t.Errorf("%d headers and two overrides: got %+v; want the first named", len(others), ref)
		}
	}
}
