package e2e

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"loupe/server"
)

// TestARepeatVisitTakesTheWasmFromTheServiceWorker loads a page, waits for go-app's service
// worker, empties the browser's HTTP cache and loads the page again: the app runs with no
// request for app.wasm reaching the server, and the wasm the page got came through the worker.
func TestARepeatVisitTakesTheWasmFromTheServiceWorker(t *testing.T) {
	startServer(t) // checks the wasm is built
	srv, err := server.New(server.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatalf("server.New: %v", err)
	}
	var wasmRequests atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/app.wasm") {
			wasmRequests.Add(1)
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	ctx := newBrowser(t)
	page := ts.URL + "/entities/entities.search"
	openPage(t, ctx, page)
	if _, err := chromedp.Run(within(t, ctx, 60*time.Second), chromedp.Evaluate[bool](
		`navigator.serviceWorker.ready.then(() => true)`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("waiting for the service worker: %v", err)
	}
	if got := wasmRequests.Load(); got < 1 {
		t.Fatalf("got %d requests for app.wasm on the first visit; want at least 1", got)
	}
	if _, err := chromedp.Call(within(t, ctx, 10*time.Second), network.ClearBrowserCache, cdp.Empty{}); err != nil {
		t.Fatalf("emptying the HTTP cache: %v", err)
	}
	before := wasmRequests.Load()
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	openPage(t, ctx, page)
	if got := wasmRequests.Load() - before; got != 0 {
		t.Errorf("got %d requests for app.wasm on the repeat visit; want none (the service worker has it)", got)
	}
	viaWorker, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Evaluate[bool](
		`performance.getEntriesByType("resource").some(e => e.name.endsWith("/app.wasm") && e.workerStart > 0)`))
	if err != nil {
		t.Fatal(err)
	}
	if !viaWorker {
		t.Errorf("the repeat visit's app.wasm did not come through the service worker")
	}
}
