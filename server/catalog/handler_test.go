package catalog

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

// get serves one request through h.
func get(h http.Handler, method, path string, header ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// brotliMade starts the catalog's brotli encoding, if no request has, and waits until it is
// made.
func brotliMade(h http.Handler) {
	enc := h.(*handler).catalog.enc
	enc.brotli()
	<-enc.brDone
}

// TestBrotliOnlyWhenAskedFor: a body that no client asks for with brotli is never compressed
// with it; the first request that accepts br gets gzip and starts it, and the ones after it
// get brotli.
func TestBrotliOnlyWhenAskedFor(t *testing.T) {
	body := []byte(`{"test":"` + t.Name() + `","at":"` + time.Now().String() + `"}`) // in no other test's cache entry
	res := newResource(body, "application/json", "v1", true)
	serve := func(accept string) string {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodGet, "/catalog.json", nil)
		r.Header.Set("Accept-Encoding", accept)
		res.serve(w, r)
		return w.Header().Get("Content-Encoding")
	}
	for _, accept := range []string{"", "gzip", "identity"} {
		serve(accept)
	}
	select {
	case <-res.enc.brDone:
		t.Fatal("brotli was made with no client asking for it")
	case <-time.After(100 * time.Millisecond):
	}
	if got := serve("br, gzip"); got != "gzip" {
		t.Errorf("the first request that accepts br: got Content-Encoding %q; want gzip while brotli is made", got)
	}
	<-res.enc.brDone
	if got := serve("br, gzip"); got != "br" {
		t.Errorf("once brotli is made: got Content-Encoding %q; want br", got)
	}
}

func TestHandlerCatalogEncodings(t *testing.T) {
	fsys := os.DirFS("testdata/good")
	c := loadGood(t)
	h := Handler(c, fsys)
	want, _ := json.Marshal(c)
	if got := get(h, http.MethodGet, "/catalog.json", "Accept-Encoding", "br, gzip").Header().Get("Content-Encoding"); got != "br" && got != "gzip" {
		t.Errorf("got Content-Encoding %q before brotli is ready; want br or gzip", got)
	}
	<-h.(*handler).catalog.enc.brDone
	tests := []struct {
		accept, encoding string
		decode           func(io.Reader) (io.Reader, error)
	}{
		{"", "", func(r io.Reader) (io.Reader, error) { return r, nil }},
		{"gzip", "gzip", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
		{"gzip, deflate, br, zstd", "br", func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil }},
		{"br;q=0, gzip", "gzip", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
		{"*", "br", func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil }},
		{"identity", "", func(r io.Reader) (io.Reader, error) { return r, nil }},
	}
	for _, tt := range tests {
		w := get(h, http.MethodGet, "/catalog.json", "Accept-Encoding", tt.accept)
		if w.Code != http.StatusOK {
			t.Fatalf("Accept-Encoding %q: got status %d; want 200", tt.accept, w.Code)
		}
		if got := w.Header().Get("Content-Encoding"); got != tt.encoding {
			t.Errorf("Accept-Encoding %q: got Content-Encoding %q; want %q", tt.accept, got, tt.encoding)
		}
		for k, v := range map[string]string{
			"Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-cache", "Vary": "Accept-Encoding",
		} {
			if got := w.Header().Get(k); got != v {
				t.Errorf("Accept-Encoding %q: got %s %q; want %q", tt.accept, k, got, v)
			}
		}
		r, err := tt.decode(w.Body)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("Accept-Encoding %q: got %d bytes (err %v); want the %d bytes of the catalog JSON", tt.accept, len(got), err, len(want))
		}
	}
}

func TestHandlerETag(t *testing.T) {
	c := loadGood(t)
	h := Handler(c, os.DirFS("testdata/good"))
	brotliMade(h)
	first := get(h, http.MethodGet, "/catalog.json", "Accept-Encoding", "gzip")
	etag := first.Header().Get("ETag")
	if want := `"` + c.Version + `-gzip"`; etag != want {
		t.Fatalf("got ETag %q; want %q", etag, want)
	}
	tests := []struct {
		name, ifNoneMatch, accept string
		want                      int
	}{
		{"same tag", etag, "gzip", http.StatusNotModified},
		{"identity tag while asking gzip", `"` + c.Version + `"`, "gzip", http.StatusNotModified},
		{"in a list", `"old", ` + etag, "br", http.StatusNotModified},
		{"weak form", "W/" + etag, "", http.StatusNotModified},
		{"star", "*", "", http.StatusNotModified},
		{"stale", `"0123456789ab"`, "gzip", http.StatusOK},
		{"none", "", "gzip", http.StatusOK},
	}
	for _, tt := range tests {
		w := get(h, http.MethodGet, "/catalog.json", "If-None-Match", tt.ifNoneMatch, "Accept-Encoding", tt.accept)
		if w.Code != tt.want {
			t.Errorf("%s: got status %d; want %d", tt.name, w.Code, tt.want)
		}
		if w.Code == http.StatusNotModified && (w.Body.Len() != 0 || w.Header().Get("ETag") == "") {
			t.Errorf("%s: got 304 with %d body bytes and ETag %q; want no body and an ETag", tt.name, w.Body.Len(), w.Header().Get("ETag"))
		}
	}
}

func TestHandlerDocuments(t *testing.T) {
	fsys := os.DirFS("testdata/good")
	h := Handler(loadGood(t), fsys)
	file, err := os.ReadFile("testdata/good/openapi/chat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	w := get(h, http.MethodGet, "/openapi/chat.yaml")
	if w.Code != http.StatusOK || !bytes.Equal(w.Body.Bytes(), file) {
		t.Errorf("got status %d and %d bytes; want 200 and the file's %d bytes", w.Code, w.Body.Len(), len(file))
	}
	if got, want := w.Header().Get("Content-Type"), "application/yaml; charset=utf-8"; got != want {
		t.Errorf("got Content-Type %q; want %q", got, want)
	}
	if w2 := get(h, http.MethodGet, "/openapi/chat.yaml", "If-None-Match", w.Header().Get("ETag")); w2.Code != http.StatusNotModified {
		t.Errorf("got status %d revalidating the document; want 304", w2.Code)
	}

	tests := []struct {
		method, path string
		want         int
		errorPart    string
	}{
		{http.MethodGet, "/openapi/nope.yaml", http.StatusNotFound, `no OpenAPI document for API \"nope\"`},
		{http.MethodGet, "/openapi/../guides/chat.yaml", http.StatusNotFound, "no OpenAPI document"},
		{http.MethodGet, "/elsewhere", http.StatusNotFound, "not found"},
		{http.MethodPost, "/catalog.json", http.StatusMethodNotAllowed, "method not allowed"},
		{http.MethodHead, "/openapi/chat.yaml", http.StatusOK, ""},
	}
	for _, tt := range tests {
		w := get(h, tt.method, tt.path)
		if w.Code != tt.want {
			t.Errorf("%s %s: got status %d; want %d", tt.method, tt.path, w.Code, tt.want)
		}
		if tt.errorPart == "" {
			continue
		}
		if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") || !strings.Contains(w.Body.String(), tt.errorPart) {
			t.Errorf("%s %s: got %s %q; want a JSON error containing %q", tt.method, tt.path, ct, w.Body.String(), tt.errorPart)
		}
	}
}

// TestHandlerContent serves the real content: every document as written, and the catalog
// in gzip decoding to the catalog's JSON.
func TestHandlerContent(t *testing.T) {
	c := loadContent(t)
	h := Handler(c, contentDir)
	for _, a := range c.APIs {
		file, err := fs.ReadFile(contentDir, "openapi/"+a.Slug+".yaml")
		if err != nil {
			t.Fatal(err)
		}
		w := get(h, http.MethodGet, "/openapi/"+a.Slug+".yaml")
		if w.Code != http.StatusOK || !bytes.Equal(w.Body.Bytes(), file) {
			t.Errorf("/openapi/%s.yaml: got status %d and %d bytes; want 200 and the file's %d bytes", a.Slug, w.Code, w.Body.Len(), len(file))
		}
	}
	w := get(h, http.MethodGet, "/catalog.json", "Accept-Encoding", "gzip")
	zr, err := gzip.NewReader(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Version string }
	if err := json.NewDecoder(zr).Decode(&got); err != nil || got.Version != c.Version {
		t.Errorf("got version %q (err %v) from the gzip catalog; want %q", got.Version, err, c.Version)
	}
}
