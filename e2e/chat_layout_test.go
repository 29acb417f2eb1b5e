package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestTheChatPageOpensAtItsTopAndShowsThePreview opens the chat page on a laptop screen: it is
// not scrolled (the breadcrumb shows), and a code block's Preview opens where it can be seen,
// above the sticky composer.
func TestTheChatPageOpensAtItsTopAndShowsThePreview(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	emulate(t, ctx, 1366, 768, "light")
	openPage(t, ctx, base+"/chat/createChatCompletion")
	tctx := within(t, ctx, 20*time.Second)
	if err := chromedp.Do(tctx, chromedp.WaitVisible(chromedp.ID("chat-view"))); err != nil {
		t.Fatal(err)
	}
	// The sidebar scrolls to the current operation after the render: give it that frame.
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	if y, _ := chromedp.Run(tctx, chromedp.Evaluate[float64](`window.scrollY`)); y != 0 {
		t.Errorf("the chat page opened scrolled down by %vpx; want it at its top", y)
	}
	if top, _ := chromedp.Run(tctx, chromedp.Evaluate[float64](`document.querySelector(".crumbs").getBoundingClientRect().top`)); top < 0 {
		t.Errorf("the breadcrumb is %vpx above the screen; want it in sight", top)
	}
	if ok, _ := chromedp.Run(tctx, chromedp.Evaluate[bool](`(() => { const a = document.querySelector('#side a[aria-current="page"]'), l = a.closest(".api-list");
		const r = a.getBoundingClientRect(), b = l.getBoundingClientRect(); return r.top >= b.top && r.bottom <= b.bottom; })()`)); !ok {
		t.Errorf("the current operation is not in sight in the sidebar")
	}

	chatAsk(t, ctx, "a counter app")
	chatWaitDone(t, ctx, 90*time.Second)
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Click(chromedp.CSS(".preview-code")), chromedp.WaitVisible(chromedp.CSS(".html-preview iframe"))); err != nil {
		t.Fatalf("opening the preview: %v", err)
	}
	visible, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[bool](`(() => {
		const f = document.querySelector(".html-preview iframe").getBoundingClientRect();
		const c = document.querySelector(".chat-composer").getBoundingClientRect();
		return f.top >= 0 && f.top + 100 <= Math.min(c.top, window.innerHeight) || null;
	})()`, chromedp.WithPollingTimeout(5*time.Second)))
	if err != nil || !visible {
		rect, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(document.querySelector(".html-preview iframe").getBoundingClientRect())`))
		t.Errorf("the opened preview is not in sight above the composer (%s): %v", rect, err)
	}
}
