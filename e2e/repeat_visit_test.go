package e2e

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestARepeatVisitStartsFromTheServiceWorker loads a page, waits for the service worker to
// keep it, empties the browser's HTTP cache and has the server hold every request for the page
// from then on: the page loads again and its app runs, with no request for app.wasm reaching
// the server and the wasm coming through the worker.
func TestARepeatVisitStartsFromTheServiceWorker(t *testing.T) {
	const pagePath = "/entities/entities.search"
	var wasmRequests atomic.Int32
	var holdPages atomic.Bool
	// The worker's background fetch of the page is answered only when the test ends.
	base, _ := holdingServer(t, func(r *http.Request) bool {
		if strings.HasSuffix(r.URL.Path, "/app.wasm") {
			wasmRequests.Add(1)
		}
		return r.URL.Path == pagePath && holdPages.Load()
	})
	ctx := newBrowser(t)
	openPage(t, ctx, base+pagePath)
	if _, err := chromedp.Run(within(t, ctx, 60*time.Second), chromedp.Evaluate[bool](
		`navigator.serviceWorker.ready.then(() => true)`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("waiting for the service worker: %v (%s)", err, workerDiagnosis(ctx))
	}
	if got := wasmRequests.Load(); got < 1 {
		t.Fatalf("got %d requests for app.wasm on the first visit; want at least 1", got)
	}
	if _, err := chromedp.Run(within(t, ctx, 30*time.Second), chromedp.Poll[bool](
		`caches.match(location.origin + location.pathname).then(r => r ? true : null)`, chromedp.WithPollingInterval(100*time.Millisecond))); err != nil {
		t.Fatalf("the service worker never kept the page: %v (%s)", err, workerDiagnosis(ctx))
	}
	if _, err := chromedp.Call(within(t, ctx, 10*time.Second), network.ClearBrowserCache, cdp.Empty{}); err != nil {
		t.Fatalf("emptying the HTTP cache: %v", err)
	}
	holdPages.Store(true)
	before := wasmRequests.Load()
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	openPage(t, ctx, base+pagePath)
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
