package site

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

// TestTheServerWorkerKeepsPages checks the app-worker.js the server gives: go-app's worker with
// both of Loupe's changes in (a go-app upgrade that moves the replaced code fails here).
func TestTheServerWorkerKeepsPages(t *testing.T) {
	h, err := New(Options{Web: fstest.MapFS{"app.wasm": {Data: []byte("\x00asm raw wasm")}}})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/app-worker.js", nil))
	js := w.Body.String()
	for _, want := range []string{
		`request.mode === "navigate"`,          // pages answered from the cache, fetched again behind
		"await cacheClientPages();",            // the first page kept on activation
		"await cache.addAll(resourcesToCache)", // go-app's install, unchanged
	} {
		if !strings.Contains(js, want) {
			t.Errorf("app-worker.js has no %q", want)
		}
	}
	if got := strings.Count(js, "async function fetchWithCache("); got != 1 {
		t.Errorf("got %d fetchWithCache functions; want 1", got)
	}
}
