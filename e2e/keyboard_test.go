package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestSkipLinkMovesFocusAndKeepsTheForm uses "Skip to content" on a filled form: focus moves
// into the main pane, and the URL and the form stay as they were.
func TestSkipLinkMovesFocusAndKeepsTheForm(t *testing.T) {
	t.Parallel()
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

// tabTo presses Tab until the focused element matches the CSS selector, at most max times, and
// returns how many presses it took.
func tabTo(t *testing.T, ctx context.Context, sel string, max int) int {
	t.Helper()
	for i := 1; i <= max; i++ {
		if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.KeyEvent(kb.Tab)); err != nil {
			t.Fatal(err)
		}
		if ok, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`!!(document.activeElement && document.activeElement.matches(%s))`, jsString(sel)))); ok {
			return i
		}
	}
	got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(a => a ? a.tagName + "#" + a.id + "." + a.className : "none")(document.activeElement)`))
	t.Fatalf("%d presses of Tab never reached %s (focus on %s)", max, sel, got)
	return 0
}

// pressKey presses a key on the focused element.
func pressKey(t *testing.T, ctx context.Context, key string, opts ...chromedp.KeyOption) {
	t.Helper()
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.KeyEvent(key, opts...)); err != nil {
		t.Fatal(err)
	}
}

// TestTheKeyboardAloneSendsAndReadsTheAnswer uses an operation page without a mouse: Tab to
// Send and press Enter, hear the answer's status once, switch the response tabs with the arrow
// keys, and Fetch all pages.
func TestTheKeyboardAloneSendsAndReadsTheAnswer(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/pagination/listItemsPageNumber#v1&page_size=40")
	// Count what the live region says.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		window.announced = [];
		const el = document.getElementById("response-announce");
		new MutationObserver(() => { if (el.textContent) window.announced.push(el.textContent); }).observe(el, {childList: true, characterData: true, subtree: true});
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Focus(chromedp.CSS(".skip-link")), chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	presses := tabTo(t, ctx, "#send", 40)
	t.Logf("%d presses of Tab from the skip link to Send", presses)
	pressKey(t, ctx, kb.Enter)
	tctx := within(t, ctx, 30*time.Second)
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`window.announced.length > 0 || null`)); err != nil {
		t.Fatalf("the answer was not announced: %v", err)
	}
	// Give a repeated announcement the time to show up, then count.
	if err := chromedp.Do(tctx, chromedp.WaitVisible(chromedp.ID("paged-table")), chromedp.Sleep(500*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	announced, _ := chromedp.Run(tctx, chromedp.Evaluate[[]string](`window.announced`))
	if len(announced) != 1 || !strings.HasPrefix(announced[0], "Response 200 OK") {
		t.Errorf("the live region said %q; want one announcement of the 200", announced)
	}

	// The response tabs: Tab reaches the selected one, the arrow keys move and select.
	tabTo(t, ctx, `[role="tab"][aria-selected="true"]`, 20)
	first, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.activeElement.id`))
	pressKey(t, ctx, kb.ArrowRight)
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](fmt.Sprintf(`(a => a.getAttribute("role") === "tab" && a.id !== %s && a.getAttribute("aria-selected") === "true")(document.activeElement) || null`, jsString(first)),
		chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("ArrowRight from %s did not focus and select the next tab: %v", first, err)
	}
	pressKey(t, ctx, kb.Home)
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](fmt.Sprintf(`(a => a.id === %s && a.getAttribute("aria-selected") === "true")(document.activeElement) || null`, jsString(first)),
		chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("Home did not go back to %s: %v", first, err)
	}

	// Fetch all pages, from the keyboard: Shift+Tab back to it from the tabs.
	for i := 0; i < 10; i++ {
		pressKey(t, ctx, kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift))
		if ok, _ := chromedp.Run(tctx, chromedp.Evaluate[bool](`document.activeElement.id === "page-all"`)); ok {
			break
		}
	}
	pressKey(t, ctx, kb.Enter)
	summary, err := chromedp.Run(tctx, chromedp.Poll[string](`(s => s && s.includes("from") ? s : null)((document.getElementById("page-summary") || {}).textContent)`,
		chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil || !strings.HasPrefix(summary, "95 items from 3 pages") {
		t.Errorf("Fetch all pages from the keyboard: got %q (%v); want 95 items from 3 pages", summary, err)
	}
}

// TestTheKeyboardAloneStopsTheChat sends a chat message with Ctrl+Enter and stops the answer
// with Tab and Enter on Stop.
func TestTheKeyboardAloneStopsTheChat(t *testing.T) {
	t.Parallel()
	ctx := openChat(t, "")
	if err := chromedp.Do(within(t, ctx, 20*time.Second), chromedp.Focus(chromedp.ID("chat-input")), chromedp.KeyEvent("write a long story")); err != nil {
		t.Fatal(err)
	}
	pressKey(t, ctx, kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl))
	tctx := within(t, ctx, 20*time.Second)
	if err := chromedp.Do(tctx, chromedp.WaitVisible(chromedp.CSS(".chat-msg.assistant.streaming"))); err != nil {
		t.Fatalf("Ctrl+Enter did not start an answer: %v", err)
	}
	tabTo(t, ctx, "#chat-stop", 10)
	pressKey(t, ctx, kb.Enter)
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`document.querySelector("#chat-metrics").textContent.includes("stopped") || null`,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("Enter on Stop did not stop the answer: %v", err)
	}
}

// TestNavigationMovesFocusToThePage follows a sidebar link from the keyboard: the focus moves
// to the new page, so the next Tab goes into it.
func TestNavigationMovesFocusToThePage(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/entities/entities.search")
	tctx := within(t, ctx, 30*time.Second)
	if err := chromedp.Do(tctx, chromedp.Focus(chromedp.CSS(`#side a[href="/docs/listProjects"]`)), chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`document.querySelector(".op-page") && document.querySelector(".op-page").dataset.op === "docs/listProjects" && document.activeElement.id === "main" || null`,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.tagName + "#" + document.activeElement.id`))
		t.Fatalf("after following a link the focus is on %s; want the main pane: %v", got, err)
	}
	if y, _ := chromedp.Run(tctx, chromedp.Evaluate[float64](`window.scrollY`)); y != 0 {
		t.Errorf("after following a link the page is scrolled by %vpx; want its top", y)
	}
}

// TestErrorsAreAnnouncedOnSendNotOnEveryKeystroke types a wrong value key by key, then sends:
// no live region speaks while typing, the form's status says once on Send what needs fixing.
func TestErrorsAreAnnouncedOnSendNotOnEveryKeystroke(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/entities/entities.search")
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		window.spoken = [];
		const live = () => Array.from(document.querySelectorAll('[role="alert"], [aria-live="polite"], [aria-live="assertive"], [role="status"]'));
		new MutationObserver(ms => {
			for (const m of ms) {
				const region = live().find(r => r.contains(m.target));
				if (region && region.textContent.trim()) window.spoken.push(region.textContent.trim());
			}
		}).observe(document.getElementById("main"), {childList: true, characterData: true, subtree: true});
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
	tctx := within(t, ctx, 30*time.Second)
	if err := chromedp.Do(tctx, chromedp.Focus(chromedp.CSS(field("query:limit")+" input")), chromedp.KeyEvent("abc")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`document.querySelector('[data-param="query:limit"] .field-error').textContent !== "" || null`,
		chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("typing abc in limit shows no error: %v", err)
	}
	if spoken, _ := chromedp.Run(tctx, chromedp.Evaluate[[]string](`window.spoken`)); len(spoken) != 0 {
		t.Errorf("while typing, live regions said %q; want nothing until Send", spoken)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send"))); err != nil {
		t.Fatal(err)
	}
	spoken, err := chromedp.Run(tctx, chromedp.Poll[[]string](`window.spoken.length ? window.spoken : null`, chromedp.WithPollingTimeout(5*time.Second)))
	if err != nil || len(spoken) != 1 || !strings.Contains(spoken[0], "need") {
		t.Errorf("on Send, live regions said %q (%v); want one status saying what needs fixing", spoken, err)
	}
}
