package pagination

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// page is a decoded list body of any style.
type page struct {
	Count    *int    `json:"count"`
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Results  []Item  `json:"results"`
}

// mounted returns the sandbox as the server mounts it, under /sandbox/pagination.
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

// getPage GETs target from h, wants 200 and decodes the list.
func getPage(t *testing.T, h http.Handler, target string, header http.Header) page {
	t.Helper()
	w := serve(t, h, http.MethodGet, target, header)
	if w.Code != http.StatusOK {
		t.Fatalf("GET %s: status: got %d; want 200 (body %s)", target, w.Code, w.Body)
	}
	if got := w.Header().Get("Content-Type"); got != "application/json" {
		t.Errorf("GET %s: Content-Type: got %q; want application/json", target, got)
	}
	var p page
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
		t.Fatalf("GET %s: decoding %s: %v", target, w.Body, err)
	}
	return p
}

// ids lists the IDs of items.
func ids(items []Item) []int {
	out := make([]int, len(items))
	for i, it := range items {
		out[i] = it.ID
	}
	return out
}

// idRange returns from, from+1, ..., to (or down to to when to < from).
func idRange(from, to int) []int {
	var out []int
	if from <= to {
		for i := from; i <= to; i++ {
			out = append(out, i)
		}
		return out
	}
	for i := from; i >= to; i-- {
		out = append(out, i)
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
