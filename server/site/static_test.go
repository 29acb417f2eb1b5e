package site

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// blankPage is the page the site tests render.
type blankPage struct{ app.Compo }

// Render implements app.Composer.
func (*blankPage) Render() app.UI { return app.Main().Text("blank") }

func TestTheStaticWorkerCachesOnFirstFetchAndFallsBackOffline(t *testing.T) {
	for _, want := range []string{"cache.put(request, response.clone())", "cache.match(self.registration.scope)", `const cacheName = "app-" + "{{.Version}}"`,
		`request.cache === "no-store"`, `new Request(url, { cache: "no-cache" })`, `new URL("web/{{.Version}}/", self.registration.scope)`} {
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
	for _, name := range []string{"app.js", "app-worker.js", "wasm_exec.js", "manifest.webmanifest", "app.css", "404.html",
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

// TestTheThemeScriptRunsInTheHeadAndIsWritten checks that every page loads web/theme.js from
// its versioned address in the <head>, without defer or async (it must set the saved theme
// before the body paints), and that the static site holds it.
func TestTheThemeScriptRunsInTheHeadAndIsWritten(t *testing.T) {
	h, err := New(Options{Web: fstest.MapFS{
		"app.wasm":  {Data: []byte("\x00asm")},
		"loupe.css": {Data: []byte("body{}")},
		"theme.js":  {Data: []byte("/* theme */")},
	}, Base: "/api/"})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	app.Route("/", func() app.Composer { return &blankPage{} })
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/", nil))
	page := w.Body.String()
	head, _, _ := strings.Cut(page, "</head>")
	tag := regexp.MustCompile(`<script[^>]*src="/api/web/` + h.Version() + `/theme.js"[^>]*>`).FindString(head)
	if tag == "" {
		t.Fatalf("the head does not load /api/web/%s/theme.js: %.2000s", h.Version(), head)
	}
	if strings.Contains(tag, "defer") || strings.Contains(tag, "async") {
		t.Errorf("got %s; want a script that runs before the body is parsed (no defer, no async)", tag)
	}
	dir := t.TempDir()
	if err := h.WriteFiles(dir, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "web", h.Version(), "theme.js")); err != nil || string(got) != "/* theme */" {
		t.Errorf("the static site's theme.js: got %q, %v; want the asset", got, err)
	}
}
