package cluster

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"

	"loupe/server/sandbox"
)

// apiKey is the Authorization header the default sandbox accepts.
const apiKey = "ApiKey " + sandbox.DefaultKey

// basic returns a basic Authorization header for user:pass.
func basic(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

// do sends method target (path and query) with the Authorization header auth
// (none when empty) and body to h.
func do(t *testing.T, h http.Handler, method, target, auth, body string) *httptest.ResponseRecorder {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	r := httptest.NewRequest(method, "http://localhost:9200"+target, rd)
	if auth != "" {
		r.Header.Set("Authorization", auth)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// get sends an authenticated GET.
func get(t *testing.T, h http.Handler, target string) *httptest.ResponseRecorder {
	t.Helper()
	return do(t, h, http.MethodGet, target, apiKey, "")
}

// decode decodes a JSON body into a generic value.
func decode(t *testing.T, w *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		t.Fatalf("decoding %q: %v", w.Body, err)
	}
	return v
}

// health GETs target, wants status and decodes the health body.
func health(t *testing.T, h http.Handler, target string, status int) healthBody {
	t.Helper()
	w := get(t, h, target)
	if w.Code != status {
		t.Fatalf("GET %s: status: got %d; want %d (body %s)", target, w.Code, status, w.Body)
	}
	var b struct {
		healthBody
		Indices map[string]indexBody `json:"indices"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil {
		t.Fatalf("GET %s: decoding %s: %v", target, w.Body, err)
	}
	b.healthBody.Indices = b.Indices
	return b.healthBody
}

// indexNames lists the keys of a decoded indices block, sorted.
func indexNames(b healthBody) []string {
	m, _ := b.Indices.(map[string]indexBody)
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(t *testing.T, got, want string) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("decoding %s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("decoding %s: %v", want, err)
	}
	return reflect.DeepEqual(g, w)
}
