package site

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

// TestTheServerWorkerKeepsPages checks the app-worker.js the server gives: go-app's worker with
// Loupe's three changes in (a go-app upgrade that moves the replaced code fails here).
func TestTheServerWorkerKeepsPages(t *testing.T) {
	h, err := New(Options{Web: fstest.MapFS{"app.wasm": {Data: []byte("\x00asm raw wasm")}}})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/app-worker.js", nil))
	js := w.Body.String()
	for _, want := range []string{
		`request.mode === "navigate"`,             // pages answered from the cache, fetched again behind
		"await cacheClientPages();",               // the first page kept on activation
		`event.waitUntil(installWorker()`,         // the install waits for its cache
		`new Request(url, { cache: "no-cache" })`, // fresh copies, not the HTTP cache's
	} {
		if !strings.Contains(js, want) {
			t.Errorf("app-worker.js has no %q", want)
		}
	}
	if got := strings.Count(js, "async function fetchWithCache("); got != 1 {
		t.Errorf("got %d fetchWithCache functions; want 1", got)
	}
	if strings.Contains(js, "await cache.addAll(resourcesToCache);") {
		t.Error("app-worker.js still installs from the HTTP cache")
	}
}
