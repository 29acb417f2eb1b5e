package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestJSONLDViewerShowsEntityCards(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/entities/entities.search")
	tctx := within(t, ctx, 60*time.Second)
	// Type the query the way a user does: an input event per change.
	ok, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`(() => {
		const el = document.querySelector('.field[data-param="query:query"] input');
		if (!el) return false;
		el.focus(); el.value = "Paris";
		el.dispatchEvent(new Event("input", {bubbles: true}));
		return true;
	})()`))
	if err != nil || !ok {
		t.Fatalf("no query field: %v %v", ok, err)
	}
	if err := chromedp.Do(tctx,
		chromedp.Click(chromedp.ID("send")),
		chromedp.WaitVisible(chromedp.CSS(".entity-card")),
	); err != nil {
		t.Fatalf("no entity cards after Send: %v", err)
	}
	cards, err := chromedp.Run(tctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll(".entity-card")).map(c => c.querySelector(".entity-name").textContent + " | " + Array.from(c.querySelectorAll(".chip")).map(x => x.textContent).join(","))`))
	if err != nil || len(cards) == 0 {
		t.Fatalf("got cards %q, %v; want some", cards, err)
	}
	if !strings.Contains(cards[0], "Paris") || !strings.Contains(cards[0], "Thing") {
		t.Errorf("the first card is %q; want Paris with its types as chips", cards[0])
	}
	// Scores are scaled to the top score: the first bar is full.
	if w, _ := chromedp.Run(tctx, chromedp.Evaluate[float64](`parseFloat(document.querySelector(".entity-card .score-fill").style.width)`)); w != 100 {
		t.Errorf("the top score's bar is %v%% wide; want 100%%", w)
	}
	// External links open in a new tab without opener or referrer.
	bad, _ := chromedp.Run(tctx, chromedp.Evaluate[int](
		`Array.from(document.querySelectorAll(".entity-card a")).filter(a => a.target !== "_blank" || a.rel !== "noopener noreferrer" || !/^https?:/.test(a.href)).length`))
	if bad != 0 {
		t.Errorf("got %d links without target=_blank rel=noopener noreferrer or with another scheme", bad)
	}
	// Images that cannot load (the sandbox has no network) are hidden, not shown broken.
	if _, err := chromedp.Run(within(t, ctx, 15*time.Second), chromedp.Poll[bool](
		`Array.from(document.querySelectorAll(".entity-card img")).every(i => i.complete && i.naturalWidth > 0)`)); err != nil {
		t.Errorf("a broken image stays in a card: %v", err)
	}
	// The expanded view shows every term's full IRI through @context.
	if err := chromedp.Do(within(t, ctx, 20*time.Second), chromedp.Click(chromedp.CSS(`.seg-btn[value="expanded"]`))); err != nil {
		t.Fatalf("switching to the expanded view: %v", err)
	}
	text, err := chromedp.Run(within(t, ctx, 20*time.Second), chromedp.Text(chromedp.CSS(".jsonld-expanded")))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"http://schema.org/itemListElement", "http://schema.googleapis.com/resultScore", "http://schema.org/name"} {
		if !strings.Contains(text, want) {
			t.Errorf("the expanded view lacks %s", want)
		}
	}
}
