// Package e2e drives the real server and the real wasm in headless Chromium with chromedp.
//
// The tests need web/app.wasm (make wasm) and Chromium (make deps installs Debian's package).
// They never skip: without Chromium or the wasm they fail and say what to run.
package e2e

import (
	"context"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"loupe/server"
	"loupe/server/sandbox/state"
	"loupe/web"
)

// browserTestsAtOnce is how many tests run at once by default: two per core. A browser test
// waits much of its time (a chat streams at its pace, a page loads, a check waits for what must
// not happen), so two per core keep the cores busy; more would only slow each test (their
// timeouts are what fails first). Each test's Chromium takes about half a gigabyte (PSS).
func browserTestsAtOnce() int { return 2 * runtime.GOMAXPROCS(0) }

// chromePath finds Chromium: $CHROME, then /usr/bin/chromium, then chromium on $PATH.
func chromePath(t testing.TB) string {
	t.Helper()
	for _, p := range []string{os.Getenv("CHROME"), "/usr/bin/chromium"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	t.Fatal("Chromium is not installed: run `make deps` (apt-get install -y chromium) or set CHROME to its path")
	return ""
}

// startServer starts the real Loupe server in-process on a loopback port and returns its base
// URL. Each option may change the configuration first; by default every API is on its built-in
// sandbox and the chat model streams at 200 tokens/s, slow enough to watch a stream grow.
func startServer(t testing.TB, opts ...func(*server.Config)) string {
	t.Helper()
	if _, err := fs.Stat(web.FS, "app.wasm"); err != nil {
		t.Fatal("web/app.wasm is not built: run `make wasm` (make test does it) before the browser tests")
	}
	cfg := server.Config{ChatTokensPerSecond: 200, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	for _, o := range opts {
		o(&cfg)
	}
	srv := newServer(t, cfg)
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	return ts.URL
}

// newServer is server.New for a test. The tests run in parallel, each with servers of its own
// in this process, but the catalog that pages are prerendered with is the process's
// (loupe/app.UseCatalog: the last server made sets it). Every server of a parallel test has the
// built-in catalog, so that it does not matter which; a test whose server has a catalog of its
// own (APIs or walkthroughs of its configuration) runs alone: it calls serialCatalog first and
// not t.Parallel, and newServer fails it otherwise.
func newServer(t testing.TB, cfg server.Config) *server.Server {
	t.Helper()
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatalf("server.New: %v", err)
	}
	own := cfg.Settings != nil && len(cfg.Settings.Walkthroughs) > 0
	for _, a := range srv.Catalog().APIs {
		own = own || a.Own
	}
	top, _, _ := strings.Cut(t.Name(), "/")
	if _, serial := serialTests.Load(top); own && !serial {
		srv.Close()
		t.Fatal("this server has a catalog of its own (APIs or walkthroughs of its configuration): " +
			"the test must run alone, calling serialCatalog(t) instead of t.Parallel()")
	}
	return srv
}

// serialTests holds the names of the tests that called serialCatalog.
var serialTests sync.Map

// serialCatalog marks a test that runs alone, not in parallel with the others (it does not call
// t.Parallel), because its server has a catalog of its own: see newServer.
func serialCatalog(t *testing.T) {
	serialTests.Store(t.Name(), true)
}

// openPage navigates to url and waits until the wasm runs (go-app removes #app-wasm-loader)
// and the sidebar is visible. It fails the test after 60 s.
func openPage(t testing.TB, ctx context.Context, url string) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx,
		chromedp.Navigate(url),
		chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")),
		chromedp.WaitVisible(chromedp.ID("side")),
	); err != nil {
		t.Fatalf("opening %s: %v", url, err)
	}
}

// within returns a context that ends after d, for one step of a test.
func within(t testing.TB, ctx context.Context, d time.Duration) context.Context {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, d)
	t.Cleanup(cancel)
	return c
}

// visitorCookie gives the browser of ctx a sandbox-session cookie for base before it opens a
// page and returns it, so that a test's own calls to /sandbox/<slug> act on the same visitor's
// sandboxes as the browser (each visitor has their own).
func visitorCookie(t testing.TB, ctx context.Context, base string) *http.Cookie {
	t.Helper()
	_, c := state.NewCookie(false)
	if _, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{Name: c.Name, Value: c.Value, URL: base, Path: "/", HTTPOnly: new(true)}); err != nil {
		t.Fatalf("setting the sandbox cookie: %v", err)
	}
	return c
}
