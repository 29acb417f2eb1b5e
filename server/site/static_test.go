package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func TestTheStaticWorkerCachesOnFirstFetchAndFallsBackOffline(t *testing.T) {
	for _, want := range []string{"cache.put(request, response.clone())", "cache.match(self.registration.scope)", `const cacheName = "app-" + "{{.Version}}"`} {
		if !strings.Contains(StaticWorkerTemplate, want) {
			t.Errorf("the static worker lacks %q: go-app's template changed", want)
		}
	}
}

func TestBaseResolver(t *testing.T) {
	a := testAssets(t)
	for _, tc := range []struct{ base, in, want string }{
		{"", "/", "/"},
		{"/", "/web/app.wasm", "/web/" + a.version + "/app.wasm"},
		{"/api/", "/", "/api"},
		{"/api/", "/web/app.wasm", "/api/web/" + a.version + "/app.wasm"},
		{"/api/", "/app.js", "/api/app.js"},
		{"/api/", "/catalog.json", "/api/catalog.json"},
		{"/api/", "/api/chat", "/api/chat"}, // app links carry the base already
		{"/api/", "https://example.org/x", "https://example.org/x"},
	} {
		if got := resolver(a, tc.base).Resolve(tc.in); got != tc.want {
			t.Errorf("base %q: Resolve(%q) = %q; want %q", tc.base, tc.in, got, tc.want)
		}
	}
}

func TestWriteFilesWritesPagesAndVersionedAssets(t *testing.T) {
	h, err := New(Options{Web: fstest.MapFS{
		"app.wasm":    {Data: []byte("\x00asm")},
		"app.wasm.gz": {Data: []byte("gz")},
		"loupe.css":   {Data: []byte("body{}")},
	}, Base: "/api/", VersionSalt: "catalog-1"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := h.WriteFiles(dir, nil); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"app.js", "app-worker.js", "wasm_exec.js", "manifest.webmanifest", "app.css",
		"web/" + h.Version() + "/app.wasm", "web/" + h.Version() + "/app.wasm.gz", "web/" + h.Version() + "/loupe.css"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was not written: %v", name, err)
		}
	}
	js, _ := os.ReadFile(filepath.Join(dir, "app.js"))
	if !strings.Contains(string(js), `"/api/web/`+h.Version()+`/app.wasm"`) {
		t.Errorf("app.js does not load the wasm under the base: %.300s", js)
	}
	if err := h.WriteFiles(dir, []string{"/nowhere"}); err == nil {
		t.Error("a page that does not render: got no error; want one")
	}
}
