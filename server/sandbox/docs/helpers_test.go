package docs

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// mounted returns the sandbox as the server mounts it, under /sandbox/docs.
func mounted(opts Options) http.Handler {
	return http.StripPrefix(DefaultPrefix, New(opts))
}

// serve sends method target (a full URL) with the headers to h.
func serve(t *testing.T, h http.Handler, method, target string, header http.Header) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// getJSON GETs target from h, wants the status and application/json, and
// decodes the body into out.
func getJSON(t *testing.T, h http.Handler, target string, status int, out any) {
	t.Helper()
	w := serve(t, h, http.MethodGet, target, nil)
	if w.Code != status {
		t.Fatalf("GET %s: status: got %d; want %d (body %s)", target, w.Code, status, w.Body)
	}
	if got := w.Header().Get("Content-Type"); got != "application/json" {
		t.Errorf("GET %s: Content-Type: got %q; want application/json", target, got)
	}
	if err := json.Unmarshal(w.Body.Bytes(), out); err != nil {
		t.Fatalf("GET %s: decoding %s: %v", target, w.Body, err)
	}
}

// listPage is a decoded list body.
type listPage struct {
	Count    int               `json:"count"`
	Next     *string           `json:"next"`
	Previous *string           `json:"previous"`
	Results  []json.RawMessage `json:"results"`
}

// resultIDs decodes the id of each result.
func resultIDs(t *testing.T, p listPage) []int {
	t.Helper()
	out := []int{}
	for _, raw := range p.Results {
		var v struct {
			ID int `json:"id"`
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("decoding %s: %v", raw, err)
		}
		out = append(out, v.ID)
	}
	return out
}

// str returns the link as a string, "<nil>" for null.
func str(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// base is the address the unmounted sandbox is asked at in tests.
const base = "http://docs.test"
