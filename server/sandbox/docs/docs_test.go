package docs

import (
	"net/http"
	"strings"
	"testing"
)

func TestRouting(t *testing.T) {
	tests := []struct {
		name, method, target string
		wantStatus           int
		wantBody             string
		wantLocation         string
	}{
		{"project list", http.MethodGet, "/api/v2/project/", 200, "", ""},
		{"HEAD is allowed", http.MethodHead, "/api/v2/build/7367364/", 200, "", ""},
		{"unknown path", http.MethodGet, "/api/v2/nothing/", 404, `{"detail":"Not found."}`, ""},
		{"outside the API", http.MethodGet, "/", 404, `{"detail":"Not found."}`, ""},
		{"API v3 is not served", http.MethodGet, "/api/v3/projects/", 404, `{"detail":"Not found."}`, ""},
		{"too deep", http.MethodGet, "/api/v2/project/6/active_versions/x/", 404, `{"detail":"Not found."}`, ""},
		{"unknown project action", http.MethodGet, "/api/v2/project/6/builds/", 404, `{"detail":"Not found."}`, ""},
		{"empty id", http.MethodGet, "/api/v2/project//", 404, `{"detail":"Not found."}`, ""},
		{"dotted id", http.MethodGet, "/api/v2/project/6.json/", 404, `{"detail":"Not found."}`, ""},
		{"non-numeric id", http.MethodGet, "/api/v2/project/pip/", 404, `{"detail":"Not found."}`, ""},
		{"non-numeric version id", http.MethodGet, "/api/v2/version/stable/", 404, `{"detail":"Not found."}`, ""},
		{"non-numeric build id", http.MethodGet, "/api/v2/build/x/", 404, `{"detail":"Not found."}`, ""},
		// An anonymous write is refused by the permission check before any
		// method check, like DRF's: 403 even where the method has no handler.
		{"POST", http.MethodPost, "/api/v2/project/", 403, `{"detail":"Authentication credentials were not provided."}`, ""},
		{"DELETE a build", http.MethodDelete, "/api/v2/build/7367364/", 403, `{"detail":"Authentication credentials were not provided."}`, ""},
		{"PUT embed", http.MethodPut, "/api/v2/embed/", 403, `{"detail":"Authentication credentials were not provided."}`, ""},
		{"PATCH a version", http.MethodPatch, "/api/v2/version/1437428/", 403, `{"detail":"Authentication credentials were not provided."}`, ""},
		{"other methods are 405", http.MethodOptions, "/api/v2/project/", 405, `{"detail":"Method \"OPTIONS\" not allowed."}`, ""},
		{"POST to an unknown path is a 404", http.MethodPost, "/api/v2/nothing/", 404, `{"detail":"Not found."}`, ""},
		{"missing slash redirects", http.MethodGet, "/api/v2/project/6?x=1", 301, "", base + "/api/v2/project/6/?x=1"},
		{"missing slash on a list", http.MethodGet, "/api/v2/version", 301, "", base + "/api/v2/version/"},
	}
	h := New(Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := serve(t, h, tt.method, base+tt.target, nil)
			if got := w.Code; got != tt.wantStatus {
				t.Errorf("status: got %d; want %d (%s)", got, tt.wantStatus, w.Body)
			}
			if tt.wantBody != "" {
				// The body is compact JSON without HTML escaping, like DRF's.
				if got := w.Body.String(); got != tt.wantBody {
					t.Errorf("body: got %s; want %s", got, tt.wantBody)
				}
			}
			if tt.wantStatus != 301 {
				if got := w.Header().Get("Content-Type"); got != "application/json" {
					t.Errorf("Content-Type: got %q; want application/json", got)
				}
			}
			if got := w.Header().Get("Location"); got != tt.wantLocation {
				t.Errorf("Location: got %q; want %q", got, tt.wantLocation)
			}
			if tt.wantStatus == 405 {
				if got := w.Header().Get("Allow"); got != "GET, HEAD" {
					t.Errorf("Allow: got %q; want GET, HEAD", got)
				}
			}
		})
	}
}

func TestNoHTMLEscaping(t *testing.T) {
	w := serve(t, New(Options{}), http.MethodGet, base+"/api/v2/version/?project__slug=pip&limit=1", nil)
	if got, want := w.Body.String(), `"next":"http://docs.test/api/v2/version/?limit=1&offset=1&project__slug=pip"`; !strings.Contains(got, want) {
		t.Errorf("body: got %s; want it to contain %s", got, want)
	}
}
