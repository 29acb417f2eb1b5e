package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// spyFetch records the URL and body of every request the page sends to the proxy, in
// window.sent, so a test can compare what was sent with what the form shows.
func spyFetch(t *testing.T, ctx context.Context) {
	t.Helper()
	if _, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Evaluate[bool](`(() => {
		window.sent = [];
		const real = window.fetch;
		window.fetch = function (url, init) {
			const u = String(url);
			if (u.includes("/proxy/")) window.sent.push({url: u, body: init && typeof init.body === "string" ? init.body : ""});
			return real.apply(this, arguments);
		};
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
}

// typeInto replaces the value of the input with the given id as typing does (an input event).
func typeInto(t *testing.T, ctx context.Context, id, value string) {
	t.Helper()
	if _, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[bool](`(() => {
		const el = document.getElementById(`+jsString(id)+`);
		if (!el) return null;
		el.focus(); el.value = `+jsString(value)+`;
		el.dispatchEvent(new Event("input", {bubbles: true}));
		return true;
	})()`)); err != nil {
		t.Fatalf("typing into #%s: %v", id, err)
	}
}

// evalString evaluates a JavaScript expression that returns a string.
func evalString(t *testing.T, ctx context.Context, js string) string {
	t.Helper()
	s, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Evaluate[string](js))
	if err != nil {
		t.Fatalf("evaluating %s: %v", js, err)
	}
	return s
}

// TestAWalkthroughStepIsTheOperationsForm checks that each step is its operation's own form:
// a value typed in the search step's form is what the request sent carries (and what the
// preview shows), a wrong value is flagged at its field and keeps the step from running, and
// the lookup step's carried id shows in its field, marked with the step it came from.
func TestAWalkthroughStepIsTheOperationsForm(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/walkthroughs/entities-search-then-lookup")
	waitStep(t, ctx, "search", "current")
	spyFetch(t, ctx)

	// A wrong value: flagged at the field, Run step sends nothing and focuses it.
	typeInto(t, ctx, "f-query-limit", "lots")
	if _, err := chromedp.Run(within(t, ctx, 30*time.Second), clickWhenEnabled("walk-run-step")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[bool](`(() => {
		const f = document.querySelector('#walk-form [data-param="query:limit"]');
		return f && f.classList.contains("invalid") && f.querySelector(".field-error").textContent !== "" &&
			document.activeElement && document.activeElement.id === "f-query-limit" || null; })()`,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Errorf("after Run step with limit=lots the field is not flagged and focused: %v", err)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`window.sent.length`)); n != 0 {
		t.Errorf("an invalid step sent %d requests; want none", n)
	}

	// An edited value is what is shown, previewed and sent.
	typeInto(t, ctx, "f-query-limit", "2")
	if _, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[bool](`(l => l && l.innerText.includes("limit=2") && !document.querySelector('#walk-form [data-param="query:limit"]').classList.contains("invalid") || null)(document.querySelector("#walk-step-search .req-line"))`)); err != nil {
		preview := evalString(t, ctx, `document.querySelector("#walk-step-search .req-line").innerText`)
		t.Errorf("the preview reads %q; want limit=2 as typed, the field no longer flagged (%v)", preview, err)
	}
	if _, err := chromedp.Run(within(t, ctx, 30*time.Second), clickWhenEnabled("walk-run-step")); err != nil {
		t.Fatal(err)
	}
	waitStep(t, ctx, "search", "passed")
	sent := evalString(t, ctx, `window.sent.map(r => r.url).join("\n")`)
	if !strings.Contains(sent, "limit=2") || strings.Contains(sent, "limit=3") || strings.Count(sent, "\n") != 0 {
		t.Errorf("the requests sent were\n%s\nwant one, with limit=2 as the form showed", sent)
	}

	// The lookup step: the carried id is in its field, marked with its source.
	waitStep(t, ctx, "lookup", "current")
	field, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[string](`(() => {
		const f = document.querySelector('#walk-form [data-param="query:ids"]');
		const i = document.getElementById("f-query-ids");
		return f && i && i.value.startsWith("kg:/m/") ? i.value + " | " + f.querySelector(".field-head").innerText : null; })()`))
	if err != nil {
		t.Fatalf("the lookup's ids field never showed the carried id: %v", err)
	}
	if !strings.Contains(field, "← step search, output id") {
		t.Errorf("the ids field reads %q; want it marked as carried from step search, output id", field)
	}
}

// TestTheChatWalkthroughStreamsInTheRunner runs the chat walkthrough's first step: its answer
// grows in the chat's own rendering, visibly step by step, before the step is judged; a second
// run is stopped half-way, which leaves the step unjudged and ready to run again.
func TestTheChatWalkthroughStreamsInTheRunner(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/walkthroughs/chat-tool-round-trip")
	waitStep(t, ctx, "askForApp", "current")
	// Record each length the answer's text is painted with while it streams.
	if _, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Evaluate[bool](`(() => {
		window.lengths = [];
		const tick = () => {
			const m = document.querySelector("#walk-step-askForApp .chat-msg.assistant.streaming .chat-md");
			if (m) { const n = m.innerText.length; if (n > 0 && n !== window.lengths[window.lengths.length - 1]) window.lengths.push(n); }
			requestAnimationFrame(tick);
		};
		requestAnimationFrame(tick);
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(within(t, ctx, 30*time.Second), clickWhenEnabled("walk-run-step")); err != nil {
		t.Fatal(err)
	}
	step := waitStep(t, ctx, "askForApp", "passed")
	if !strings.Contains(step, `chat\.completion\.chunk" passed`) {
		t.Errorf("the streamed step shows\n%s\nwant its criteria judged on the streamed body", step)
	}
	lengths, _ := chromedp.Run(ctx, chromedp.Evaluate[[]int](`window.lengths`))
	if len(lengths) < 10 {
		t.Errorf("the answer was painted at %d lengths while streaming (%v); want it to grow in at least 10 visible steps", len(lengths), lengths)
	}
	final := evalString(t, ctx, `(m => m ? m.getAttribute("aria-busy") + " " + m.querySelector(".chat-md").innerText.length : "none")(document.querySelector("#walk-step-askForApp .chat-msg.assistant"))`)
	if !strings.HasPrefix(final, "false ") {
		t.Errorf("after the stream the answer reads %q; want it shown, no longer busy", final)
	}

	// Stop during a stream: start again, stop once text shows.
	if _, err := chromedp.Run(within(t, ctx, 30*time.Second), clickWhenEnabled("walk-restart")); err != nil {
		t.Fatal(err)
	}
	waitStep(t, ctx, "askForApp", "current")
	for _, a := range []chromedp.Action[bool]{clickWhenEnabled("walk-run-step"),
		chromedp.Poll[bool](`(m => m && m.innerText.length > 20 || null)(document.querySelector("#walk-step-askForApp .chat-msg.assistant.streaming .chat-md"))`),
		clickWhenEnabled("walk-stop")} {
		if _, err := chromedp.Run(within(t, ctx, 30*time.Second), a); err != nil {
			t.Fatalf("stopping the stream: %v", err)
		}
	}
	stopped, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[string](`(s => s && s.innerText.includes("Stopped:") && !document.getElementById("walk-run-step").disabled ? s.innerText : null)(document.getElementById("walk-step-askForApp"))`))
	if err != nil {
		t.Fatalf("Stop did not stop the streamed step: %v", err)
	}
	if strings.Contains(stopped, "passed") || strings.Contains(stopped, "failed") {
		t.Errorf("the stopped step shows\n%s\nwant it unjudged", stopped)
	}
}

// TestTheKeyboardAloneRunsAWalkthroughStep runs a walkthrough step without a mouse: skip link,
// Tab to Run step, Enter; then Enter in the next step's form runs that step.
func TestTheKeyboardAloneRunsAWalkthroughStep(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/walkthroughs/entities-search-then-lookup")
	waitStep(t, ctx, "search", "current")
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Focus(chromedp.CSS(".skip-link")), chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	presses := tabTo(t, ctx, "#walk-run-step", 30)
	t.Logf("%d presses of Tab from the skip link to Run step", presses)
	pressKey(t, ctx, kb.Enter)
	waitStep(t, ctx, "search", "passed")
	waitStep(t, ctx, "lookup", "current")
	// Into the lookup's form: its first field, then Enter runs the step.
	tabTo(t, ctx, "#walk-form input", 60)
	pressKey(t, ctx, kb.Enter)
	waitStep(t, ctx, "lookup", "passed")
}
