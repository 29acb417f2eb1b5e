package site

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestPagesAreCompressed checks what a browser gets on a first and a repeat visit: the page and
// go-app's scripts gzipped when it accepts gzip, the precompressed wasm with its own encoding
// untouched, and a revalidated page answered 304 with no body.
func TestPagesAreCompressed(t *testing.T) {
	h, err := New(Options{Web: fstest.MapFS{
		"app.wasm":    {Data: []byte("\x00asm raw wasm")},
		"app.wasm.br": {Data: []byte("brotli bytes")},
		"loupe.css":   {Data: []byte(strings.Repeat("body { color: red; }\n", 200))},
	}})
	if err != nil {
		t.Fatal(err)
	}
	app.Route("/", func() app.Composer { return &blankPage{} })
	get := func(path, accept, etag string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		if accept != "" {
			r.Header.Set("Accept-Encoding", accept)
		}
		if etag != "" {
			r.Header.Set("If-None-Match", etag)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for _, tt := range []struct{ name, path, accept, want string }{
		{"page", "/", "gzip, br", "gzip"},
		{"go-app's script", "/app.js", "gzip", "gzip"},
		{"stylesheet", "/web/" + h.Version() + "/loupe.css", "gzip", "gzip"},
		{"precompressed wasm", "/web/" + h.Version() + "/app.wasm", "gzip, br", "br"},
		{"page, no gzip accepted", "/", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := get(tt.path, tt.accept, "")
			if got := w.Header().Get("Content-Encoding"); w.Code != http.StatusOK || got != tt.want {
				t.Fatalf("got %d with Content-Encoding %q; want 200 with %q", w.Code, got, tt.want)
			}
			if tt.want == "gzip" {
				zr, err := gzip.NewReader(w.Body)
				if err != nil {
					t.Fatal(err)
				}
				if body, err := io.ReadAll(zr); err != nil || len(body) == 0 {
					t.Errorf("the gzipped body: %d bytes, %v; want it to decompress", len(body), err)
				}
				if !strings.Contains(w.Header().Get("Vary"), "Accept-Encoding") {
					t.Errorf("got Vary %q; want Accept-Encoding", w.Header().Get("Vary"))
				}
			}
		})
	}
	t.Run("repeat visit revalidates the page", func(t *testing.T) {
		etag := get("/", "gzip", "").Header().Get("ETag")
		if w := get("/", "gzip", etag); w.Code != http.StatusNotModified || w.Body.Len() != 0 {
			t.Errorf("with If-None-Match %s: got %d and %d bytes; want 304 and none", etag, w.Code, w.Body.Len())
		}
	})
}

// TestThePageAsksForTheWasmEarly checks that every page preloads the versioned app.wasm in its
// head, under the base, in the mode app.js fetches it (so the browser uses the preload).
func TestThePageAsksForTheWasmEarly(t *testing.T) {
	h, err := New(Options{Web: fstest.MapFS{"app.wasm": {Data: []byte("\x00asm")}}, Base: "/api/"})
	if err != nil {
		t.Fatal(err)
	}
	app.Route("/", func() app.Composer { return &blankPage{} })
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/", nil))
	head, _, _ := strings.Cut(w.Body.String(), "</head>")
	want := `<link rel="preload" href="/api/web/` + h.Version() + `/app.wasm" as="fetch" crossorigin="anonymous">`
	if !strings.Contains(head, want) {
		t.Errorf("the head does not hold %s: %.1500s", want, head)
	}
	if js := h.Resolve("/web/app.wasm"); !strings.Contains(want, js) {
		t.Errorf("app.js fetches %s; want the preloaded address", js)
	}
}
