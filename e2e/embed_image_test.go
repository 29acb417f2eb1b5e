package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestAnEmbeddedPageShowsItsImages asks for a page of pip's user guide, rendered from its
// Markdown source, and checks that the preview frame loads the page's image from the sandbox.
func TestAnEmbeddedPageShowsItsImages(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/docs/getEmbed#v1&project=pip&doc=user_guide")
	tctx := within(t, ctx, 30*time.Second)
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("embed-frame"))); err != nil {
		t.Fatalf("sending: %v", err)
	}
	doc, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.getElementById("embed-frame").getAttribute("srcdoc")`))
	if !strings.Contains(doc, "/sandbox/docs/_images/pip/install-flow.svg") {
		t.Fatalf("the preview has no image from the sandbox: %.400s", doc)
	}
	// The frame is sandboxed without allow-same-origin, so its document cannot be read from
	// here; the image's URL is fetched the way the frame does, and must be an image.
	got, err := chromedp.Run(tctx, chromedp.Poll[string](`(async () => {
		const m = document.getElementById("embed-frame").getAttribute("srcdoc").match(/src="([^"]*install-flow.svg)"/);
		if (!m) return null;
		const r = await fetch(m[1].replace(/&amp;/g, "&"));
		return r.ok ? r.headers.get("content-type") : "status " + r.status;
	})()`, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil || got != "image/svg+xml" {
		t.Errorf("the page's image: got %q (%v); want image/svg+xml", got, err)
	}
}
