package e2e

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/chromedp"

	"loupe/content"
	"loupe/server"
)

// rebuildEnv names the helper run of this test binary that writes a static site from the
// content with one guide changed (a rebuilt site), out of this process: writing a site sets
// go-app's page variables for its process.
const rebuildEnv = "LOUPE_E2E_REBUILD_STATIC"

// rebuildMarker is the line the rebuilt site's entities guide gains.
const rebuildMarker = "This guide was rebuilt."

// TestHelperRebuildStatic is not a test: it is the helper process of writeRebuiltStatic, which
// runs this binary with rebuildEnv set to the output folder. Without it, it does nothing.
func TestHelperRebuildStatic(t *testing.T) {
	dir := os.Getenv(rebuildEnv)
	if dir == "" {
		return // run as a test: nothing to do
	}
	files := fstest.MapFS{}
	if err := fs.WalkDir(content.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(content.FS, p)
		files[p] = &fstest.MapFile{Data: b}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	g := files["guides/entities.md"]
	g.Data = append(append([]byte(nil), g.Data...), "\n\n"+rebuildMarker+"\n"...)
	if _, err := server.WriteStatic(server.StaticConfig{Dir: dir, Base: "/", Content: files}); err != nil {
		t.Fatal(err)
	}
}

// writeRebuiltStatic writes the rebuilt site over dir.
func writeRebuiltStatic(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperRebuildStatic$", "-test.count=1")
	cmd.Env = append(os.Environ(), rebuildEnv+"="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("rebuilding the site: %v\n%s", err, out)
	}
}

// siteVersion is the build version the site in dir names in its service worker.
func siteVersion(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "app-worker.js"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`const cacheName = "app-" \+ "([0-9a-f]+)"`).FindSubmatch(b)
	if m == nil {
		t.Fatal("app-worker.js names no version")
	}
	return string(m[1])
}

// TestARebuiltStaticSiteReachesAReturningVisitor: a visitor whose service worker has cached
// the site comes back after a rebuild (served by a plain file server, which sends no caching
// headers): their next load shows the new build, its page, its catalog and its app, and the
// worker moves to the new version and drops the old one's cache.
func TestARebuiltStaticSiteReachesAReturningVisitor(t *testing.T) {
	dir := writeStatic(t, "/")
	site := serveFiles(t, dir, "/")
	old := siteVersion(t, dir)
	ctx := newBrowser(t)
	openPage(t, ctx, site+"entities")
	if _, err := chromedp.Run(within(t, ctx, 90*time.Second), chromedp.Poll[bool](
		`navigator.serviceWorker.controller && caches.keys().then(k => k.includes("app-`+old+`") || null)`,
		chromedp.WithPollingInterval(200*time.Millisecond))); err != nil {
		t.Fatalf("the first visit's service worker never took the page with its cache: %v (%s)", err, workerDiagnosis(ctx))
	}
	if _, err := chromedp.Run(within(t, ctx, 60*time.Second), chromedp.Poll[bool](
		`caches.open("app-`+old+`").then(c => c.keys()).then(k => k.length >= 10 || null)`)); err != nil {
		t.Fatalf("the worker never cached the site: %v", err)
	}
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}

	writeRebuiltStatic(t, dir)
	next := siteVersion(t, dir)
	if next == old {
		t.Fatalf("the rebuilt site has the same version %s; want a new one", old)
	}
	openPage(t, ctx, site+"entities")
	text, err := chromedp.Run(within(t, ctx, 20*time.Second), chromedp.Poll[string](
		`document.body.innerText.includes(`+jsString(rebuildMarker)+`) ? "new" : null`))
	if err != nil || text != "new" {
		body, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Evaluate[string](`document.body.innerText.slice(0, 300)`))
		t.Fatalf("the returning visitor's next load does not show the rebuilt guide (%v): %q", err, body)
	}
	wasm, _ := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Evaluate[string](
		`(performance.getEntriesByType("resource").find(e => e.name.includes("/app.wasm")) || {name: ""}).name`))
	if !strings.Contains(wasm, "/web/"+next+"/") {
		t.Errorf("the app ran %q; want the new build's app.wasm (/web/%s/)", wasm, next)
	}
	if _, err := chromedp.Run(within(t, ctx, 90*time.Second), chromedp.Poll[bool](
		`caches.keys().then(k => (k.includes("app-`+next+`") && !k.includes("app-`+old+`")) || null)`,
		chromedp.WithPollingInterval(200*time.Millisecond))); err != nil {
		keys, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Evaluate[[]string](`caches.keys()`, chromedp.EvalAwaitPromise))
		t.Errorf("the worker did not move to the new version: caches %v; want app-%s only", keys, next)
	}
}
