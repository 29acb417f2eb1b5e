package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestSkipLinkMovesFocusAndKeepsTheForm uses "Skip to content" on a filled form: focus moves
// into the main pane, and the URL and the form stay as they were.
func TestSkipLinkMovesFocusAndKeepsTheForm(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/entities/entities.search#v1&query=paris&limit=3")
	tctx := within(t, ctx, 30*time.Second)
	if err := chromedp.Do(tctx, chromedp.Focus(chromedp.CSS(".skip-link")), chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	focused, err := chromedp.Run(tctx, chromedp.Poll[string](`(a => a && a.closest("#main") ? (a.id || a.tagName) : null)(document.activeElement)`,
		chromedp.WithPollingTimeout(5*time.Second)))
	if err != nil {
		t.Fatalf("focus did not move into the page: %v", err)
	}
	t.Logf("focus is on %s", focused)
	if got, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`location.hash`)); got != "#v1&query=paris&limit=3" {
		t.Errorf("after the skip link the fragment is %q; want it unchanged", got)
	}
	if got := inputValues(t, ctx, "query:query"); len(got) != 1 || got[0] != "paris" {
		t.Errorf("after the skip link query shows %q; want paris", got)
	}
	if n, _ := chromedp.Run(tctx, chromedp.Evaluate[int](`document.querySelectorAll(".notice").length`)); n != 0 {
		t.Errorf("after the skip link a notice shows: the form state was read as a broken link")
	}
}
