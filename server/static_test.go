package server

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"loupe/app/catalog"
	"loupe/content"
)

func TestCheckBase(t *testing.T) {
	for _, tc := range []struct {
		in, want, wantErr string
	}{
		{"", "/", ""},
		{"/", "/", ""},
		{"/api", "/api/", ""},
		{"/docs/api/", "/docs/api/", ""},
		{"api/", "", "must start with a slash, such as /api/"},
		{"/a/../b/", "", "plain folder name"},
		{"/a b/", "", "plain folder name"},
	} {
		got, err := CheckBase(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("CheckBase(%q): got error %v; want one saying %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("CheckBase(%q): got %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestWriteStaticRefusesBadOutputAndLeavesNothing(t *testing.T) {
	parent := t.TempDir()
	notSite := filepath.Join(parent, "notes")
	if err := os.MkdirAll(notSite, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(notSite, "todo.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(parent, "locked")
	if err := os.MkdirAll(locked, 0o555); err != nil {
		t.Fatal(err)
	}
	noModule := fstest.MapFS{"app.wasm": {Data: []byte("\x00asm")}}
	for _, tc := range []struct {
		name    string
		cfg     StaticConfig
		wantErr string
	}{
		{"a base without a leading slash", StaticConfig{Dir: filepath.Join(parent, "a"), Base: "docs/"}, "must start with a slash"},
		{"a folder with other files", StaticConfig{Dir: notSite}, "not empty and was not written by `loupe static`"},
		{"a file", StaticConfig{Dir: filepath.Join(notSite, "todo.txt")}, "is a file"},
		{"no sandbox module built", StaticConfig{Dir: filepath.Join(parent, "b"), Web: noModule}, "run `make wasm`"},
		{"a built-in API's module not built", StaticConfig{Dir: filepath.Join(parent, "c"), Web: withoutModule("sandbox-docs.wasm")}, "web/sandbox-docs.wasm is not built: run `make wasm`"},
		{"the module of the APIs of your own not built", StaticConfig{Dir: filepath.Join(parent, "d"), Web: withoutModule("own.wasm")}, "web/own.wasm is not built"},
		{"an unwritable parent", StaticConfig{Dir: filepath.Join(locked, "site"), Web: builtModules()}, "cannot write beside the output folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "an unwritable parent" && os.Geteuid() == 0 {
				// root writes anywhere: make the parent a file instead, which nobody can write into.
				tc.cfg.Dir = filepath.Join(notSite, "todo.txt", "site")
			}
			_, err := WriteStatic(tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) && !strings.Contains(err.Error(), "not a directory") {
				t.Fatalf("got %v; want an error saying %q", err, tc.wantErr)
			}
		})
	}
	entries, _ := os.ReadDir(parent)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "locked notes" {
		t.Errorf("the parent folder holds %q after the failures; want only what was there (locked notes)", got)
	}
	if b, _ := os.ReadFile(filepath.Join(notSite, "todo.txt")); string(b) != "mine" {
		t.Errorf("a refused folder's file changed: %q", b)
	}
}

// TestStaticVersionCoversEveryFile: the static build's version changes with any file it writes,
// the preview page and the other server-side files included, and with nothing else.
func TestStaticVersionCoversEveryFile(t *testing.T) {
	files := map[string][]byte{"/preview/index.html": []byte(previewPage), "/catalog.json": []byte(`{"apis":[]}`)}
	web := builtModules()
	st, err := staticSite(web, "/", "catalog-1", &catalog.Catalog{})
	if err != nil {
		t.Fatal(err)
	}
	base, err := buildHash(st, nil, files)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := buildHash(st, nil, map[string][]byte{"/catalog.json": []byte(`{"apis":[]}`), "/preview/index.html": []byte(previewPage)})
	if again != base {
		t.Errorf("the same files: got %s then %s; want the same version", base, again)
	}
	for name, change := range map[string]map[string][]byte{
		"the preview page": {"/preview/index.html": []byte(previewPage + " "), "/catalog.json": []byte(`{"apis":[]}`)},
		"the catalog":      {"/preview/index.html": []byte(previewPage), "/catalog.json": []byte(`{"apis":[{}]}`)},
		"a new file":       {"/preview/index.html": []byte(previewPage), "/catalog.json": []byte(`{"apis":[]}`), "/x": nil},
	} {
		if got, _ := buildHash(st, nil, change); got == base {
			t.Errorf("%s changed: the version stayed %s", name, got)
		}
	}
	otherWeb := builtModules()
	otherWeb["app.wasm"] = &fstest.MapFile{Data: []byte("\x00asm!")}
	other, _ := staticSite(otherWeb, "/", "catalog-1", &catalog.Catalog{})
	if got, _ := buildHash(other, nil, files); got == base {
		t.Errorf("another app.wasm: the version stayed %s", got)
	}
}

// TestStaticPageHeadIsHashed: the static pages' policy allows their own inline script and
// style by hash, and nothing else inline.
func TestStaticPageHeadIsHashed(t *testing.T) {
	for _, inline := range []string{frameGuard, fileWarningScript, unframedStyle} {
		if !strings.Contains(staticCSP, hashOf(inline)) {
			t.Errorf("the policy lacks the hash of %.60q", inline)
		}
	}
	if strings.Contains(staticCSP, "unsafe-inline'; ") && !strings.Contains(staticCSP, "style-src-attr 'unsafe-inline'") || strings.Contains(staticCSP, "script-src 'self' 'unsafe") {
		t.Errorf("the policy allows inline code: %s", staticCSP)
	}
	if !strings.HasPrefix(fileWarning, "<script>"+fileWarningScript+"</script>") {
		t.Error("fileWarningScript is not the file warning's script")
	}
}

// TestCanonicalHTMLSortsAttributes: two renders of a page that differ only in the order of a
// tag's attributes (go-app renders them in map order) hash alike, and a changed value does not.
func TestCanonicalHTMLSortsAttributes(t *testing.T) {
	a := canonicalHTML([]byte(`<!doctype html><html><head><meta name="x" content="1"><script>if (a<b) {}</script></head><body class="c" id="d">t</body></html>`))
	b := canonicalHTML([]byte(`<!doctype html><html><head><meta content="1" name="x"><script>if (a<b) {}</script></head><body id="d" class="c">t</body></html>`))
	if !bytes.Equal(a, b) {
		t.Errorf("got %s and %s; want the same canonical page", a, b)
	}
	if c := canonicalHTML([]byte(`<!doctype html><html><head><meta content="2" name="x"></head></html>`)); bytes.Equal(a, c) {
		t.Errorf("a changed value gave the same page: %s", c)
	}
}

// builtModules is a web folder with app.wasm and every module `make wasm` builds for the
// static explorer: one per built-in API, the APIs of your own's and the walkthrough engine.
func builtModules() fstest.MapFS {
	web := fstest.MapFS{"app.wasm": {Data: []byte("\x00asm")}, ownModule: {Data: []byte("\x00asm")}, walkthroughsModule: {Data: []byte("\x00asm")}}
	for _, slug := range content.Slugs() {
		web[apiModule(slug)] = &fstest.MapFile{Data: []byte("\x00asm")}
	}
	return web
}

// withoutModule is builtModules without the file name.
func withoutModule(name string) fstest.MapFS {
	web := builtModules()
	delete(web, name)
	return web
}
