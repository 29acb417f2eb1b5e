package site

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

// TestAppJSCompilesFetchsOwnResponse checks the app.js a browser gets: app.wasm goes to the
// streaming compile as fetch's own response (so Chrome can keep the compiled code), once, and
// go-app's progress wrapper is no longer called.
func TestAppJSCompilesFetchsOwnResponse(t *testing.T) {
	h, err := New(Options{Web: fstest.MapFS{"app.wasm": {Data: []byte("\x00asm raw wasm")}}})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/app.js", nil))
	js := w.Body.String()
	wasmURL := h.Resolve("/web/app.wasm")
	if w.Code != http.StatusOK {
		t.Fatalf("got status %d; want 200", w.Code)
	}
	if got, want := strings.Count(js, `fetch("`+wasmURL+`").then((response) =>`), 1; got != want {
		t.Errorf("got %d fetches of %s handed to the compiler; want %d", got, wasmURL, want)
	}
	if strings.Contains(js, `fetchWithProgress("`) {
		t.Errorf("app.js still calls go-app's fetchWithProgress")
	}
	if !strings.Contains(js, "instantiateStreaming(\n      fetch(") {
		t.Errorf("the fetch is not what instantiateStreaming compiles")
	}
	if got, want := strings.Count(js, "\ngoappInitServiceWorker();"), 0; got != want {
		t.Errorf("got %d calls of goappInitServiceWorker before the wasm runs; want %d", got, want)
	}
	if !strings.Contains(js, "goappInitWebAssembly().finally(goappInitServiceWorker);") {
		t.Errorf("app.js does not register the service worker once the wasm runs")
	}
}

func TestRewriteAppJS(t *testing.T) {
	for _, tt := range []struct {
		name, js string
		wantOK   bool
	}{
		{"go-app's call", `instantiateStreaming(fetchWithProgress("/web/v/app.wasm", showProgress), go.importObject)`, true},
		{"go-app's call and start", goAppStart + `instantiateStreaming(fetchWithProgress("/web/v/app.wasm", showProgress), go.importObject)`, true},
		{"the definition only", `async function fetchWithProgress(url, progess) {}`, false},
		{"called twice", `fetchWithProgress("/a", showProgress); fetchWithProgress("/b", showProgress)`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := rewriteAppJS([]byte(tt.js))
			if ok != tt.wantOK {
				t.Fatalf("got ok %v; want %v", ok, tt.wantOK)
			}
			if !ok && string(got) != tt.js {
				t.Errorf("got %q changed; want it unchanged", got)
			}
			if ok && !strings.Contains(string(got), `fetch("/web/v/app.wasm").then(`) {
				t.Errorf("got %q; want the wasm fetched directly", got)
			}
			if strings.Contains(tt.js, goAppStart) && (strings.Contains(string(got), goAppStart) || !strings.Contains(string(got), startWorkerAfterWasm)) {
				t.Errorf("got %q; want the service worker registered after the wasm runs", got)
			}
		})
	}
}
