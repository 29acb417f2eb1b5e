package e2e

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"loupe/app/catalog"
	"loupe/web"
)

// loupeBinary builds bin/loupe once per test process, with the wasm modules embedded, in the
// process's temporary folder (removed by TestMain). The static site is written by a separate
// process, as `make static` does: writing it sets go-app's page variables for the whole
// process, which the in-process servers of other tests must not see.
var loupeBinary = sync.OnceValues(func() (string, error) {
	for _, name := range []string{"app.wasm", "sandbox-entities.wasm", "own.wasm", "walkthroughs.wasm"} {
		if _, err := fs.Stat(web.FS, name); err != nil {
			return "", fmt.Errorf("web/%s is not built: run `make wasm` before the browser tests", name)
		}
	}
	dir, err := processTemp()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "loupe")
	out, err := exec.Command("go", "build", "-o", bin, "../server/cmd/loupe").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building loupe: %v\n%s", err, out)
	}
	return bin, nil
})

// writeStatic runs `loupe static -o <temp>/site -base base` and returns the folder, the test's
// own: for a test that changes the site. Tests that only read it take sharedStatic's.
func writeStatic(t testing.TB, base string) string {
	t.Helper()
	bin, err := loupeBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	if out, err := exec.Command(bin, "static", "-o", dir, "-base", base).CombinedOutput(); err != nil {
		t.Fatalf("loupe static: %v\n%s", err, out)
	}
	return dir
}

// serveFiles serves dir under base with net/http's plain file server (no Loupe server) and
// returns the site's address, ending in a slash.
func serveFiles(t testing.TB, dir, base string) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(base, http.StripPrefix(strings.TrimSuffix(base, "/"), http.FileServer(http.Dir(dir))))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts.URL + base
}

// sendAndWait clicks Send and waits for the response status; it returns it.
func sendAndWait(t *testing.T, ctx context.Context) string {
	t.Helper()
	if err := chromedp.Do(within(t, ctx, 90*time.Second),
		chromedp.Click(chromedp.ID("send")),
		chromedp.WaitVisible(chromedp.ID("response-status")),
	); err != nil {
		panel, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.TextContent(chromedp.ID("main")))
		t.Fatalf("sending: %v; page: %.400s", err, panel)
	}
	status, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Text(chromedp.ID("response-status")))
	return status
}

// firstPlainOperation is the first GET operation of a that answers in one piece, or nil.
func firstPlainOperation(a catalog.API) *catalog.Operation {
	for i, op := range a.Operations {
		if op.Method == "GET" && !op.Streaming && op.Viewer != catalog.ViewerChat {
			return &a.Operations[i]
		}
	}
	return nil
}

// processTemp is the temporary folder of this test process, for what its tests share (the
// loupe binary, the static sites), made when first asked for; TestMain removes it.
func processTemp() (string, error) {
	tempDir.once.Do(func() { tempDir.dir, tempDir.err = os.MkdirTemp("", "loupe-e2e-") })
	return tempDir.dir, tempDir.err
}

// tempDir is processTemp's folder, or "" while no test asked for it.
var tempDir struct {
	once sync.Once
	dir  string
	err  error
}

// sharedSites are the static sites written once per base for the tests that only read them
// (sharedStatic), in processTemp.
var sharedSites sync.Map // base → func() (string, error)

// sharedStatic returns the folder of the static site under base that every test reading it
// shares, written by `loupe static` the first time it is asked for. A test must not change it.
func sharedStatic(t testing.TB, base string) string {
	t.Helper()
	write, _ := sharedSites.LoadOrStore(base, sync.OnceValues(func() (string, error) {
		root, err := processTemp()
		if err != nil {
			return "", err
		}
		bin, err := loupeBinary()
		if err != nil {
			return "", err
		}
		dir := filepath.Join(root, fmt.Sprintf("site-%x", sha256.Sum256([]byte(base)))[:len("site-")+12])
		if out, err := exec.Command(bin, "static", "-o", dir, "-base", base).CombinedOutput(); err != nil {
			return "", fmt.Errorf("loupe static -base %s: %v\n%s", base, err, out)
		}
		return dir, nil
	}))
	dir, err := write.(func() (string, error))()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// removeProcessTemp removes the process's temporary folder, if a test made it. TestMain calls
// it once every test has ended.
func removeProcessTemp() {
	if tempDir.dir != "" {
		os.RemoveAll(tempDir.dir)
	}
}
