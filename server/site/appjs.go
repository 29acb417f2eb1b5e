package site

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
)

// wasmFetch is the call in go-app's app.js that fetches app.wasm for WebAssembly's streaming
// compile: fetchWithProgress("<the wasm's URL>", showProgress).
var wasmFetch = regexp.MustCompile(`fetchWithProgress\(("[^"]+"), showProgress\)`)

// wasmFetchWithCacheableResponse replaces it. go-app's fetchWithProgress hands the compiler a
// new Response built from a stream it reads for the progress label; such a Response has no URL
// and no cache entry, so Chrome never keeps the compiled code and every visit compiles the 12
// MB again. This one hands over fetch's own response, which Chrome compiles while it downloads
// and, from the HTTP cache or the service worker's cache, compiles once: a repeat visit reads
// the compiled code back. The progress label reads a clone of the response.
const wasmFetchWithCacheableResponse = `fetch($1).then((response) => {
        const total = parseInt(goappWasmContentLength, 10);
        if (response.ok && response.body && total > 0) {
          const reader = response.clone().body.getReader();
          let loaded = 0;
          const read = () => reader.read().then(({ done, value }) => {
            if (done) {
              showProgress(100);
              return;
            }
            loaded += value.byteLength;
            showProgress(Math.min(100, Math.round((loaded * 100) / total)));
            return read();
          });
          read().catch(() => {});
        }
        return response;
      })`

// goAppStart is how go-app's app.js starts: the service worker is registered first, so on a
// first visit its install (which downloads app.wasm and every other file to cache them) runs
// while the page downloads, compiles and starts the same wasm, on the same cores.
const goAppStart = `goappInitServiceWorker();
goappWatchForUpdate();
goappWatchForInstallable();
goappInitWebAssembly();
`

// startWorkerAfterWasm replaces it: the worker is registered once the wasm runs (or failed to
// load), when its install finds app.wasm in the HTTP cache and no longer competes with the start.
// A repeat visit is served by the worker already active, which the registration does not change.
const startWorkerAfterWasm = `goappWatchForUpdate();
goappWatchForInstallable();
goappInitWebAssembly().finally(goappInitServiceWorker);
`

// rewriteAppJS returns app.js with the wasm fetched by wasmFetchWithCacheableResponse and the
// service worker registered after the wasm runs (startWorkerAfterWasm), and whether go-app's
// wasm fetch was found (a go-app upgrade may move it; the site then serves go-app's app.js
// unchanged, which works, only slower). The worker's start is moved only where go-app's start
// block is found as it is.
func rewriteAppJS(js []byte) ([]byte, bool) {
	if len(wasmFetch.FindAllIndex(js, -1)) != 1 {
		return js, false
	}
	js = wasmFetch.ReplaceAll(js, []byte(wasmFetchWithCacheableResponse))
	if bytes.Count(js, []byte(goAppStart)) == 1 {
		js = bytes.Replace(js, []byte(goAppStart), []byte(startWorkerAfterWasm), 1)
	}
	return js, true
}

// appJSRewriter serves go-app's files, with app.js rewritten by rewriteAppJS.
type appJSRewriter struct{ app http.Handler }

func (a appJSRewriter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/app.js" && r.URL.Path != "/goapp.js" {
		a.app.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	a.app.ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	if rec.Code == http.StatusOK {
		body, _ = rewriteAppJS(body)
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	if rec.Code == http.StatusOK {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(rec.Code)
	if r.Method != http.MethodHead {
		_, _ = bytes.NewReader(body).WriteTo(w)
	}
}
