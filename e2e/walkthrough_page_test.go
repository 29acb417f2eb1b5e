package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// unlabelled lists the page's form controls that have no label a screen reader would read.
const unlabelled = `Array.from(document.querySelectorAll("main input:not([type=hidden]), main select, main textarea"))
	.filter(e => e.labels.length === 0 && !e.getAttribute("aria-label") && !e.getAttribute("aria-labelledby"))
	.map(e => e.id || e.outerHTML.slice(0, 80))`

// sideways reports how many pixels the page scrolls sideways and the widest step card's
// overflow past its list, "0 0" when nothing does.
const sideways = `(() => {
	const d = document.documentElement;
	const list = document.querySelector(".walk-steps") || document.querySelector("main");
	const right = list.getBoundingClientRect().right;
	const over = Math.max(0, ...Array.from(document.querySelectorAll(".walk-step")).map(s => Math.ceil(s.getBoundingClientRect().right - right)));
	return (d.scrollWidth - d.clientWidth) + " " + over;
})()`

// TestTheWalkthroughPageIsFinished checks the walkthrough page as a user sees it: the required
// input with an example shows it as its value (not a placeholder) and that value is what the
// run sends; every input has a label; the status is never in the error colour while the run
// goes well (Sending… included) and shows success once every step passed; the page does not
// scroll sideways at 1280 px nor at a phone's width, with the steps' answers open.
func TestTheWalkthroughPageIsFinished(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/walkthroughs/entities-search-then-lookup")
	waitStep(t, ctx, "search", "current")
	spyFetch(t, ctx)

	if got := evalString(t, ctx, `(e => e.value + "|" + e.placeholder)(document.getElementById("walk-input-query"))`); got != "paris|" {
		t.Errorf("the required input query shows value|placeholder %q; want its example as the value, no placeholder: paris|", got)
	}
	if got, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Evaluate[[]string](unlabelled)); err != nil || len(got) != 0 {
		t.Errorf("form controls without a label: %q (%v)", got, err)
	}

	// Record the status's colour each time it changes, against the resolved --danger.
	if _, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Evaluate[bool](`(() => {
		const probe = document.createElement("span");
		probe.style.color = "var(--danger)";
		document.body.appendChild(probe);
		window.danger = getComputedStyle(probe).color;
		probe.remove();
		window.statuses = [];
		const record = () => {
			const s = document.getElementById("walk-status");
			if (s && s.textContent) window.statuses.push({text: s.textContent, color: getComputedStyle(s).color});
		};
		new MutationObserver(record).observe(document.querySelector("main"), {subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["class"]});
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(within(t, ctx, 30*time.Second), clickWhenEnabled("walk-run-all")); err != nil {
		t.Fatal(err)
	}
	waitStep(t, ctx, "search", "passed")
	waitStep(t, ctx, "lookup", "passed")
	status, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[string](
		`(s => s && s.classList.contains("is-ok") ? s.textContent + " | " + getComputedStyle(s).color : null)(document.getElementById("walk-status"))`))
	if err != nil {
		t.Fatalf("after every step passed the status is not marked a success: %v", err)
	}
	danger := evalString(t, ctx, `window.danger`)
	if strings.HasSuffix(status, danger) {
		t.Errorf("the success status %q is in the error colour %s", status, danger)
	}
	if red := evalString(t, ctx, `window.statuses.filter(s => s.color === window.danger).map(s => s.text).join(" / ")`); red != "" {
		t.Errorf("while the run went well the status showed in the error colour: %s", red)
	}
	if seen := evalString(t, ctx, `window.statuses.map(s => s.text).join(" / ")`); !strings.Contains(seen, "Running search…") {
		t.Errorf("the statuses recorded were %q; want the running state among them (else the colour check saw nothing)", seen)
	}

	sent := evalString(t, ctx, `window.sent.map(r => r.url).join("\n")`)
	if first, _, _ := strings.Cut(sent, "\n"); !strings.Contains(first, "query=paris") {
		t.Errorf("the first request sent was %q; want query=paris, the value the input showed", first)
	}

	for _, size := range []struct{ w, h int64 }{{1280, 900}, {390, 844}} {
		emulate(t, ctx, size.w, size.h, "light")
		got, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[string](`(`+sideways+`) === "0 0" ? "0 0" : null`,
			chromedp.WithPollingTimeout(3*time.Second)))
		if err != nil {
			got = evalString(t, ctx, sideways)
			t.Errorf("at %d px the page scrolls sideways by, and a step card overflows its list by (px): %s", size.w, got)
		}
	}
}
