package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestAnEmbeddedPageIsSanitizedAndSandboxed asks the docs sandbox for its page of hostile HTML
// (scripts, event handlers, javascript: links, frames, forms, styles) and checks what the HTML
// viewer shows: the page's text, in a frame that runs no script, with none of the hostile parts.
func TestAnEmbeddedPageIsSanitizedAndSandboxed(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/docs/getEmbed#v1&project=kitchen-sink&doc=untrusted")
	tctx := within(t, ctx, 30*time.Second)
	title, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.title`))
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("embed-frame"))); err != nil {
		t.Fatalf("sending: %v", err)
	}
	sandbox, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.getElementById("embed-frame").getAttribute("sandbox")`))
	if sandbox == "" || strings.Contains(sandbox, "allow-scripts") || strings.Contains(sandbox, "allow-same-origin") {
		t.Errorf("the frame's sandbox is %q; want one without allow-scripts and allow-same-origin", sandbox)
	}
	doc, err := chromedp.Run(tctx, chromedp.Evaluate[string](`document.getElementById("embed-frame").getAttribute("srcdoc")`))
	if err != nil || !strings.Contains(doc, "Text after an inline script") {
		t.Fatalf("the frame does not show the page's text (%v): %.300s", err, doc)
	}
	for _, bad := range []string{"<script", "onerror", "onload", "onclick", "onmouseover", "javascript:", "<iframe", "<form", "<style", "http-equiv", "style="} {
		if strings.Contains(strings.ToLower(doc), bad) {
			t.Errorf("the sanitized page still holds %q", bad)
		}
	}
	// The page's scripts would change the title; none ran, in the frame or in Loupe.
	time.Sleep(300 * time.Millisecond)
	if now, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.title`)); now != title {
		t.Errorf("the title changed from %q to %q: a script of the embedded page ran", title, now)
	}
	// The Raw tab keeps what the API sent, as text.
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.CSS(`[data-tab="raw"]`)), chromedp.WaitVisible(chromedp.ID("response-raw"))); err != nil {
		t.Fatal(err)
	}
	if raw, _ := chromedp.Run(tctx, chromedp.TextContent(chromedp.ID("response-raw"))); !strings.Contains(raw, "<script") {
		t.Errorf("the Raw tab does not show the page as sent: %.200s", raw)
	}
}
