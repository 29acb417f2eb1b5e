package e2e

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"loupe/server"
)

// TestAnOperationPageRunsBeforeTheCatalogArrives holds every request for /catalog.json: the
// operation page still runs from the page catalog it carries, its form whole and Send enabled;
// another operation opened from the sidebar waits for the catalog and shows its form once the
// catalog arrives.
func TestAnOperationPageRunsBeforeTheCatalogArrives(t *testing.T) {
	startServer(t) // checks the wasm is built
	srv, err := server.New(server.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatalf("server.New: %v", err)
	}
	held := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/catalog.json" {
			select {
			case <-held:
			case <-r.Context().Done():
				return
			}
		}
		srv.ServeHTTP(w, r)
	}))
	var release sync.Once
	t.Cleanup(func() {
		release.Do(func() { close(held) })
		ts.Close()
		srv.Close()
	})
	ctx := newBrowser(t)
	openPage(t, ctx, ts.URL+"/entities/entities.search")
	ready, err := chromedp.Run(within(t, ctx, 30*time.Second), chromedp.Poll[bool](`(() => {
		const send = document.getElementById("send");
		return send && !send.disabled && !send.hasAttribute("aria-disabled") &&
			document.querySelector('.field[data-param="query:query"] input') !== null || null;
	})()`))
	if err != nil || !ready {
		t.Fatalf("the operation page with /catalog.json held: got no form with Send enabled (%v)", err)
	}
	const other = "cluster/cluster.health"
	if err := chromedp.Do(within(t, ctx, 20*time.Second),
		chromedp.Click(chromedp.CSS(`a.op-link[data-op="`+other+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`main .loading`)),
	); err != nil {
		t.Fatalf("opening %s while the catalog is held: got no loading state (%v)", other, err)
	}
	release.Do(func() { close(held) })
	if err := chromedp.Do(within(t, ctx, 30*time.Second),
		chromedp.WaitVisible(chromedp.CSS(`article[data-op="`+other+`"] #op-form`)),
	); err != nil {
		t.Fatalf("opening %s once the catalog arrived: got no form (%v)", other, err)
	}
}
