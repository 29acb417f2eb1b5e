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

// rewriteAppJS returns app.js with the wasm fetched by wasmFetchWithCacheableResponse, and
// whether go-app's call was found (a go-app upgrade may move it; the site then serves go-app's
// app.js unchanged, which works, only slower).
func rewriteAppJS(js []byte) ([]byte, bool) {
	if len(wasmFetch.FindAllIndex(js, -1)) != 1 {
		return js, false
	}
	return wasmFetch.ReplaceAll(js, []byte(wasmFetchWithCacheableResponse)), true
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
