package script

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"loupe/server/sandbox"
)

// clock is a settable clock for Options.Now.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// set moves the clock to an RFC 3339 time.
func (c *clock) set(t testing.TB, s string) {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("clock: %v", err)
	}
	c.t = v
}

// newTest returns a seeded handler on a clock set to 2026-11-20T12:10:00Z.
func newTest(t *testing.T) (http.Handler, *clock) {
	t.Helper()
	c := &clock{}
	c.set(t, "2026-11-20T12:10:00Z")
	return New(Options{Now: c.now}), c
}

// call sends method path (with body, JSON or "") to h with the sandbox key and decodes the
// answer into a generic value.
func call(t testing.TB, h http.Handler, method, path, body string) (int, any) {
	t.Helper()
	return callAuth(t, h, method, path, body, "Bearer "+sandbox.DefaultKey)
}

// callAuth is call with the given Authorization header ("" for none).
func callAuth(t testing.TB, h http.Handler, method, path, body, auth string) (int, any) {
	t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if auth != "" {
		r.Header.Set("Authorization", auth)
	}
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if got := w.Header().Get("Content-Type"); !strings.HasPrefix(got, "application/json") {
		t.Errorf("%s %s: Content-Type: got %q; want application/json", method, path, got)
	}
	var v any
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		t.Fatalf("%s %s: decoding %s: %v", method, path, w.Body, err)
	}
	return w.Code, v
}

// mustCall is call that wants 200.
func mustCall(t testing.TB, h http.Handler, method, path, body string) map[string]any {
	t.Helper()
	code, v := call(t, h, method, path, body)
	if code != http.StatusOK {
		t.Fatalf("%s %s: status: got %d; want 200 (body %s)", method, path, code, js(v))
	}
	m, _ := v.(map[string]any)
	return m
}

// js renders v as compact JSON for messages.
func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// get walks a decoded JSON value along keys (strings) and indexes (ints).
func get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

// errorOf returns the status and message of a Google error body.
func errorOf(v any) (string, string) {
	s, _ := get(v, "error", "status").(string)
	m, _ := get(v, "error", "message").(string)
	return s, m
}

// fmtSscan splits "path method".
func fmtSscan(s string, path, method *string) (int, error) { return fmt.Sscan(s, path, method) }

// sprintf is fmt.Sprintf.
func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
