package e2e

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"loupe/server"
)

// limitsCode logs lines and returns (chatty), loops without end after logging (spin, the
// loop on line 11) and allocates a gigabyte string after logging (giant).
const limitsCode = "function chatty(n) {\n" +
	"  for (var i = 1; i <= n; i++) {\n" +
	"    Logger.log('line %s of %s', i, n);\n" +
	"  }\n" +
	"  console.log('done');\n" +
	"  return n;\n" +
	"}\n" +
	"\n" +
	"function spin() {\n" +
	"  Logger.log('spinning');\n" +
	"  for (var n = 0; ; n++) {}\n" +
	"}\n" +
	"\n" +
	"function giant() {\n" +
	"  console.log('allocating');\n" +
	"  return 'x'.repeat(1e9).length;\n" +
	"}\n"

// goTypeName matches what a Go type name would look like in the page (engine.Failure,
// *script.apiError): the workspace must never show one.
var goTypeName = regexp.MustCompile(`\*?\b[a-z]+\.[A-Z][A-Za-z]*\b|\bengine\b`)

// TestScriptWorkspaceRunLogsAndLimits runs, in the script workspace of a server whose runs may
// take 2 s, a function that logs lines (its logs, result and duration shown), an endless loop
// (stopped by the time limit, said in words with what to do, its stack as Apps Script writes
// it) and a gigabyte allocation (stopped by the memory limit).
//
// It runs alone, not in parallel with the other tests: it bounds the endless loop's wall-clock
// time (the 2 s limit plus at most 1 s), which other tests' browsers taking the CPU would stretch.
func TestScriptWorkspaceRunLogsAndLimits(t *testing.T) {
	base := startServer(t, func(c *server.Config) { c.ScriptRunTimeout = 2 * time.Second })
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/script/workspace")
	tctx := within(t, ctx, 90*time.Second)
	poll := poller(t, tctx)
	poll("the example project's code", `(e => e && e.value.includes("function sendInvoices") ? "ok" : null)(document.getElementById("ws-editor"))`)
	setWorkspaceCode(t, tctx, limitsCode)
	if _, err := chromedp.Run(tctx, clickWhenEnabled("ws-save")); err != nil {
		t.Fatal(err)
	}
	poll("the saved functions", `(s => s && [...s.options].some(o => o.text === "giant()") ? "ok" : null)(document.getElementById("ws-function"))`)

	// A run that logs: its lines, its result and how long it took.
	runInWorkspace(t, tctx, poll, "chatty", "n", "3")
	summary := poll("chatty's outcome", `(s => s && s.textContent.startsWith("Completed") ? s.textContent : null)(document.getElementById("ws-run-summary"))`)
	if !regexp.MustCompile(`^Completed in (\d+ ms|\d+(\.\d+)? s)\.$`).MatchString(summary) {
		t.Errorf("chatty's summary: got %q; want Completed in <duration>.", summary)
	}
	if got := poll("chatty's logs", `(l => l && l.textContent.includes("done") ? l.textContent : null)(document.getElementById("ws-logs"))`); got != "line 1 of 3\nline 2 of 3\nline 3 of 3\ndone" {
		t.Errorf("chatty's logs: got %q; want its three lines and done", got)
	}
	if got := poll("chatty's result", `(r => r ? r.textContent : null)(document.getElementById("ws-result"))`); got != "3" {
		t.Errorf("chatty's result: got %q; want 3", got)
	}
	if got := poll("no limit", `String(document.getElementById("ws-limit") === null)`); got != "true" {
		t.Error("chatty: a limit is shown; want none")
	}

	// An endless loop: stopped by the time limit, said in words, with its stack and logs.
	runInWorkspace(t, tctx, poll, "spin", "", "")
	limit := poll("spin's limit", `(l => l && l.dataset.limit === "time" ? l.textContent : null)(document.getElementById("ws-limit"))`)
	if !strings.HasPrefix(limit, "Stopped by the time limit.") || !strings.Contains(limit, "Look for a loop that never ends") {
		t.Errorf("spin's limit: got %q; want the time limit in words with what to do", limit)
	}
	if got := poll("spin's error", `(m => m ? m.textContent : null)(document.querySelector("#ws-error .ws-error-message"))`); got != "Exceeded maximum execution time" {
		t.Errorf("spin's error: got %q; want Apps Script's Exceeded maximum execution time", got)
	}
	if got := poll("spin's frame", `(f => f ? f.textContent : null)(document.querySelector("#ws-error .ws-frame"))`); got != "spin @ Code.gs:11" {
		t.Errorf("spin's frame: got %q; want spin @ Code.gs:11, the loop", got)
	}
	summary = poll("spin's summary", `(s => s ? s.textContent : null)(document.getElementById("ws-run-summary"))`)
	m := regexp.MustCompile(`^Stopped after (\d+(?:\.\d+)?) s\.$`).FindStringSubmatch(summary)
	if m == nil {
		t.Fatalf("spin's summary: got %q; want Stopped after <seconds> s.", summary)
	}
	if secs, _ := strconv.ParseFloat(m[1], 64); secs < 2 || secs > 3 {
		t.Errorf("spin took %s s; want the 2 s limit plus at most 1 s", m[1])
	}
	if got := poll("spin's logs", `(l => l ? l.textContent : null)(document.getElementById("ws-logs"))`); got != "spinning" {
		t.Errorf("spin's logs: got %q; want what it logged before the loop", got)
	}
	checkNoGoNames(t, poll)

	// A gigabyte string: stopped by the memory limit.
	runInWorkspace(t, tctx, poll, "giant", "", "")
	limit = poll("giant's limit", `(l => l && l.dataset.limit === "memory" ? l.textContent : null)(document.getElementById("ws-limit"))`)
	if !strings.HasPrefix(limit, "Stopped by the memory limit.") || !strings.Contains(limit, "smaller pieces") {
		t.Errorf("giant's limit: got %q; want the memory limit in words with what to do", limit)
	}
	if got := poll("giant's error", `(m => m ? m.textContent : null)(document.querySelector("#ws-error .ws-error-message"))`); got != "Exceeded memory limit" {
		t.Errorf("giant's error: got %q; want Exceeded memory limit", got)
	}
	if got := poll("giant's logs", `(l => l ? l.textContent : null)(document.getElementById("ws-logs"))`); got != "allocating" {
		t.Errorf("giant's logs: got %q; want allocating", got)
	}
	checkNoGoNames(t, poll)
}

// checkNoGoNames fails the test when the run's outcome shows something that reads as a Go
// type name.
func checkNoGoNames(t *testing.T, poll func(what, expr string) string) {
	t.Helper()
	text := poll("the outcome's text", `(o => o ? o.innerText : null)(document.querySelector(".ws-outcome"))`)
	if m := goTypeName.FindString(text); m != "" {
		t.Errorf("the outcome shows %q; want no Go type name in:\n%s", m, text)
	}
}
