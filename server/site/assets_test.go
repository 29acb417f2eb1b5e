package site

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func testAssets(t *testing.T) *assets {
	t.Helper()
	a, err := loadAssets(fstest.MapFS{
		"app.wasm":    {Data: []byte("\x00asm raw wasm")},
		"app.wasm.br": {Data: []byte("brotli bytes")},
		"app.wasm.gz": {Data: []byte("gzip bytes")},
		"loupe.css":   {Data: []byte("body{}")},
		"web.go":      {Data: []byte("package web")},
		"stray.js.gz": {Data: []byte("no source")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestAssetsEncoding(t *testing.T) {
	a := testAssets(t)
	tests := []struct {
		name, path, accept string
		wantStatus         int
		wantEncoding       string
		wantBody           string
		wantCache          string
	}{
		{"brotli preferred", "/web/" + a.version + "/app.wasm", "gzip, deflate, br", 200, "br", "brotli bytes", "public, max-age=31536000, immutable"},
		{"gzip only", "/web/" + a.version + "/app.wasm", "gzip", 200, "gzip", "gzip bytes", "public, max-age=31536000, immutable"},
		{"br refused with q=0", "/web/" + a.version + "/app.wasm", "br;q=0, gzip", 200, "gzip", "gzip bytes", "public, max-age=31536000, immutable"},
		{"identity", "/web/" + a.version + "/app.wasm", "", 200, "", "\x00asm raw wasm", "public, max-age=31536000, immutable"},
		{"unversioned is revalidated", "/web/app.wasm", "br", 200, "br", "brotli bytes", "no-cache"},
		{"old version is not cached forever", "/web/0123456789abcdef/loupe.css", "", 404, "", "", "no-store"},
		{"source files are not served", "/web/" + a.version + "/web.go", "", 404, "", "", "no-store"},
		{"stray compressed file is not served", "/web/stray.js", "gzip", 404, "", "", "no-store"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", tt.path, nil)
			if tt.accept != "" {
				r.Header.Set("Accept-Encoding", tt.accept)
			}
			w := httptest.NewRecorder()
			a.ServeHTTP(w, r)
			if got := w.Code; got != tt.wantStatus {
				t.Fatalf("status: got %d; want %d", got, tt.wantStatus)
			}
			if got := w.Header().Get("Cache-Control"); got != tt.wantCache {
				t.Errorf("Cache-Control: got %q; want %q", got, tt.wantCache)
			}
			if tt.wantStatus != 200 {
				return
			}
			if got := w.Header().Get("Content-Encoding"); got != tt.wantEncoding {
				t.Errorf("Content-Encoding: got %q; want %q", got, tt.wantEncoding)
			}
			if got := w.Body.String(); got != tt.wantBody {
				t.Errorf("body: got %q; want %q", got, tt.wantBody)
			}
		})
	}
}

func TestAssetsWasmHeaders(t *testing.T) {
	a := testAssets(t)
	r := httptest.NewRequest("GET", a.Resolve("/web/app.wasm"), nil)
	r.Header.Set("Accept-Encoding", "br")
	w := httptest.NewRecorder()
	a.ServeHTTP(w, r)
	if got, want := w.Header().Get("Content-Type"), "application/wasm"; got != want {
		t.Errorf("Content-Type: got %q; want %q", got, want)
	}
	if got, want := w.Header().Get("Vary"), "Accept-Encoding"; got != want {
		t.Errorf("Vary: got %q; want %q", got, want)
	}
	if got, want := w.Header().Get("X-Uncompressed-Length"), "13"; got != want {
		t.Errorf("X-Uncompressed-Length: got %q; want %q", got, want)
	}
}

func TestAssetsVersionFollowsContent(t *testing.T) {
	a := testAssets(t)
	b, err := loadAssets(fstest.MapFS{"app.wasm": {Data: []byte("\x00asm another build")}, "loupe.css": {Data: []byte("body{}")}})
	if err != nil {
		t.Fatal(err)
	}
	if a.version == b.version {
		t.Errorf("two builds share version %s", a.version)
	}
	if got := a.Resolve("/web/loupe.css"); !strings.HasPrefix(got, "/web/"+a.version+"/") {
		t.Errorf("Resolve: got %q; want it under /web/%s/", got, a.version)
	}
	if got, want := a.Resolve("https://example.com/x.png"), "https://example.com/x.png"; got != want {
		t.Errorf("Resolve(remote): got %q; want %q", got, want)
	}
}

func TestMissingWasmSaysWhatToRun(t *testing.T) {
	a, err := loadAssets(fstest.MapFS{"loupe.css": {Data: []byte("body{}")}})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	a.ServeHTTP(w, httptest.NewRequest("GET", "/web/app.wasm", nil))
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "make build") {
		t.Errorf("got %d %q; want 404 naming make build", w.Code, w.Body.String())
	}
}

// openCounter is a file system that counts the files opened.
type openCounter struct {
	fstest.MapFS
	opened map[string]int
}

func (c *openCounter) Open(name string) (fs.File, error) {
	c.opened[name]++
	return c.MapFS.Open(name)
}

// TestAssetsReadOnlyTheSmallestVariantAtStart: the version is made from each file's smallest
// variant, so a large module with a .br is not read (nor held) until it is served.
func TestAssetsReadOnlyTheSmallestVariantAtStart(t *testing.T) {
	fsys := &openCounter{MapFS: fstest.MapFS{
		"sandbox-chat.wasm":    {Data: []byte("\x00asm a large module")},
		"sandbox-chat.wasm.br": {Data: []byte("br")},
		"loupe.css":            {Data: []byte("body{}")},
	}, opened: map[string]int{}}
	a, err := loadAssets(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if got := fsys.opened["sandbox-chat.wasm"]; got != 0 {
		t.Errorf("sandbox-chat.wasm opened %d times at start; want 0 (its .br stands for it)", got)
	}
	if got := fsys.opened["sandbox-chat.wasm.br"]; got != 1 {
		t.Errorf("sandbox-chat.wasm.br opened %d times at start; want 1", got)
	}
	rec := httptest.NewRecorder()
	a.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/web/sandbox-chat.wasm", nil))
	if got, want := rec.Body.String(), "\x00asm a large module"; got != want {
		t.Errorf("served %q; want %q", got, want)
	}
	if got, want := rec.Header().Get("X-Uncompressed-Length"), "19"; got != want {
		t.Errorf("X-Uncompressed-Length %q; want %q", got, want)
	}
}
