package e2e

import (
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestAnOperationPageRunsBeforeTheCatalogArrives holds every request for /catalog.json: the
// operation page still runs from the page catalog it carries, its form whole and Send enabled;
// another operation opened from the sidebar waits for the catalog and shows its form once the
// catalog arrives.
func TestAnOperationPageRunsBeforeTheCatalogArrives(t *testing.T) {
	t.Parallel()
	base, release := holdingServer(t, func(r *http.Request) bool { return r.URL.Path == "/catalog.json" })
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/entities/entities.search")
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
	release()
	if err := chromedp.Do(within(t, ctx, 30*time.Second),
		chromedp.WaitVisible(chromedp.CSS(`article[data-op="`+other+`"] #op-form`)),
	); err != nil {
		t.Fatalf("opening %s once the catalog arrived: got no form (%v)", other, err)
	}
}
