package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// clickWhenEnabled clicks the button with the given id once it is enabled.
func clickWhenEnabled(id string) chromedp.Action[bool] {
	return chromedp.Poll[bool](`(() => { const b = document.getElementById(` + jsString(id) + `);
		if (!b || b.disabled) return null; b.click(); return true; })()`)
}

// waitStep waits until the step's box has the status class (and, for the current step, its
// request), and returns its text.
func waitStep(t *testing.T, ctx context.Context, step, status string) string {
	t.Helper()
	text, err := chromedp.Run(within(t, ctx, 60*time.Second), chromedp.Poll[string](
		`(() => { const e = document.querySelector("#walk-step-`+step+`.walk-step-`+status+`");
		return e && (`+jsString(status)+` !== "current" || e.querySelector(".req-line, .walk-error")) ? e.innerText : null; })()`))
	if err != nil {
		page, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Text(chromedp.CSS("main")))
		t.Fatalf("step %s never became %s: %v\npage:\n%s", step, status, err, page)
	}
	return text
}

// TestAWalkthroughRunsStepByStepAndResumesFromItsLink runs the entity walkthrough one step at
// a time: the search passes its criteria, the lookup is prefilled with the id it found (marked
// with its source), a link to the half-done walkthrough opened in a new tab resumes at the
// lookup with that value, and running it there finishes the walkthrough.
func TestAWalkthroughRunsStepByStepAndResumesFromItsLink(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/walkthroughs/entities-search-then-lookup")
	if _, err := chromedp.Run(within(t, ctx, 30*time.Second), clickWhenEnabled("walk-run-step")); err != nil {
		t.Fatal(err)
	}
	search := waitStep(t, ctx, "search", "passed")
	for _, want := range []string{"$statusCode == 200 passed", "200"} {
		if !strings.Contains(search, want) {
			t.Errorf("the search step shows\n%s\nwant %q", search, want)
		}
	}
	lookup := waitStep(t, ctx, "lookup", "current")
	if !strings.Contains(lookup, "ids = kg:/m/") || !strings.Contains(lookup, "← step search, output id") {
		t.Errorf("the lookup step shows\n%s\nwant the carried id marked with its source", lookup)
	}
	link, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[string](`location.hash.includes("step=lookup") ? location.href : null`))
	if err != nil {
		t.Fatalf("the URL never recorded the progress: %v", err)
	}

	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	if err := chromedp.Do(tab); err != nil { // open the tab, not under a timeout (which would close it)
		t.Fatalf("opening a tab: %v", err)
	}
	openPage(t, tab, link)
	resumed := waitStep(t, tab, "lookup", "current")
	if !strings.Contains(resumed, "ids = kg:/m/") {
		t.Errorf("the new tab shows\n%s\nwant the lookup prefilled with the carried id", resumed)
	}
	if _, err := chromedp.Run(within(t, tab, 30*time.Second), clickWhenEnabled("walk-run-step")); err != nil {
		t.Fatal(err)
	}
	done := waitStep(t, tab, "lookup", "passed")
	if !strings.Contains(done, "$response.body#/itemListElement/0/result/@id == $steps.search.outputs.id passed") {
		t.Errorf("the lookup shows\n%s\nwant its criterion passed", done)
	}
	status, _ := chromedp.Run(within(t, tab, 10*time.Second), chromedp.Text(chromedp.ID("walk-status")))
	if status != "Done: every step passed." {
		t.Errorf("got status %q; want the walkthrough done", status)
	}
}

// TestTheChatWalkthroughRunsAll runs the chat walkthrough with Run all: the streamed answer,
// the tool call, and the tool result whose call id is carried from the step before.
func TestTheChatWalkthroughRunsAll(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/walkthroughs/chat-tool-round-trip")
	if _, err := chromedp.Run(within(t, ctx, 30*time.Second), clickWhenEnabled("walk-run-all")); err != nil {
		t.Fatal(err)
	}
	stream := waitStep(t, ctx, "askForApp", "passed")
	if !strings.Contains(stream, "$response.header.Content-Type ~ ^text/event-stream passed") {
		t.Errorf("the streamed step shows\n%s\nwant its event-stream criterion passed", stream)
	}
	final := waitStep(t, ctx, "sendToolResult", "passed")
	if !strings.Contains(final, "tool_call_id") && !strings.Contains(final, "call_") {
		t.Errorf("the last step shows\n%s\nwant the carried tool call id", final)
	}
	status, _ := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Text(chromedp.ID("walk-status")))
	if status != "Done: every step passed." {
		t.Errorf("got status %q; want the walkthrough done", status)
	}
	// Every step's call is in the history, the streamed one too.
	sent, _ := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Evaluate[int](
		`JSON.parse(localStorage.getItem("loupe.history") || "[]").filter(e => e.op === "createChatCompletion").length`))
	if sent != 3 {
		t.Errorf("the history holds %d calls of createChatCompletion; want one per step of the walkthrough, 3, the streamed one included", sent)
	}
}

// TestAFailingCriterionStopsTheWalkthrough searches for nothing: the search step shows which
// criterion failed and what to try, and the lookup does not run.
func TestAFailingCriterionStopsTheWalkthrough(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/walkthroughs/entities-search-then-lookup#in.query=zzzqqqxxx")
	if _, err := chromedp.Run(within(t, ctx, 30*time.Second), clickWhenEnabled("walk-run-all")); err != nil {
		t.Fatal(err)
	}
	failed := waitStep(t, ctx, "search", "failed")
	for _, want := range []string{"$response.body ~ $[?@.itemListElement[0].result['@id']] failed", "This step failed.", "compare it with the operation's documented response"} {
		if !strings.Contains(failed, want) {
			t.Errorf("the failed step shows\n%s\nwant %q", failed, want)
		}
	}
	status, _ := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Text(chromedp.ID("walk-status")))
	if status != "Stopped: a step failed." {
		t.Errorf("got status %q; want stopped", status)
	}
	lookup, _ := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Text(chromedp.ID("walk-step-lookup")))
	if strings.Contains(lookup, "passed") || strings.Contains(lookup, "Request") {
		t.Errorf("the lookup shows %q; want it not run", lookup)
	}
}

// TestAnUnknownWalkthroughSaysSo opens a walkthrough that does not exist.
func TestAnUnknownWalkthroughSaysSo(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/walkthroughs/nope")
	text, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Text(chromedp.ID("main")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "There is no walkthrough “nope”. The walkthroughs are: chat-tool-round-trip,") {
		t.Errorf("got %q; want the unknown id named and the walkthroughs listed", text)
	}
}
