package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"loupe/server"
	"loupe/server/config"
)

// historyAPI is the API the history test adds by configuration: a third-party OpenAPI 3.0
// document whose key goes in the X-Store-Key header, on a stub upstream.
const historyAPI = `
apis:
  pets:
    openapi: ../server/testdata/petstore-3.0.yaml
    base_url: %UPSTREAM%/v1
    credential: {value: store-key-1}
`

// TestHistoryReopensAndPythonRuns opens a configured third-party API, sends a filled form, finds
// the request in the history, reopens it from there (the form filled again), then copies the
// Python snippet (on a page without the Clipboard API, as on a plain-HTTP team server) and runs
// it with python3 against the same Loupe: the stub upstream gets the same request twice, the
// key added by the proxy both times, and the history never holds the key.
func TestHistoryReopensAndPythonRuns(t *testing.T) {
	serialCatalog(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("this test runs the Python snippet with python3, which is missing")
	}
	got := make(chan string, 4)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Method + " " + r.URL.RequestURI() + " key=" + r.Header.Get("X-Store-Key")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `[{"id": 7, "name": "Tom", "species": "cat"}]`)
	}))
	defer up.Close()
	settings, err := config.Parse([]byte(strings.ReplaceAll(historyAPI, "%UPSTREAM%", up.URL)), "loupe.yaml",
		func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	base := startServer(t, func(c *server.Config) { c.Settings = settings })
	const want = "GET /v1/pets?limit=2&species=cat key=store-key-1"
	upstream := func(what string) {
		t.Helper()
		select {
		case g := <-got:
			if g != want {
				t.Errorf("%s: the upstream got %q; want %q", what, g, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: the upstream got nothing", what)
		}
	}

	ctx := newBrowser(t)
	// The API's guide links its OpenAPI document for download.
	openPage(t, ctx, base+"/pets")
	tctx := within(t, ctx, 60*time.Second)
	doc, err := chromedp.Run(tctx, chromedp.Evaluate[string](`(async () => {
		const a = document.getElementById("openapi-download");
		if (!a || !a.hasAttribute("download")) return "no download link";
		return (await fetch(a.href)).text(); })()`, chromedp.EvalAwaitPromise))
	if err != nil || !strings.HasPrefix(doc, "openapi: 3.0") {
		t.Fatalf("the guide's OpenAPI link: got %.80q (%v); want the document", doc, err)
	}
	// Fill the form as a user does, and send.
	if err := chromedp.Do(tctx,
		chromedp.Click(chromedp.CSS(`#side a[href="/pets/listPets"]`)),
		chromedp.WaitVisible(chromedp.ID("f-query-limit")),
		chromedp.SendKeys(chromedp.ID("f-query-limit"), "2"),
	); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`(() => {
		const el = document.getElementById("f-query-species");
		el.value = "cat"; el.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("response-status"))); err != nil {
		t.Fatal(err)
	}
	upstream("Send")

	// The history lists it; one click reopens it with its form filled again.
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("history-link")), chromedp.WaitVisible(chromedp.ID("history-list"))); err != nil {
		t.Fatal(err)
	}
	entry, err := chromedp.Run(tctx, chromedp.Poll[string](`(e => e && e.textContent.includes("200") ? e.textContent : null)(document.querySelector("#history-list .history-entry"))`,
		chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil || !strings.Contains(entry, "GET") || !strings.Contains(entry, "/proxy/pets/pets?limit=2&species=cat") {
		t.Fatalf("the history's entry: got %q (%v); want GET /proxy/pets/pets?limit=2&species=cat, 200", entry, err)
	}
	stored, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`localStorage.getItem("loupe.history") || ""`))
	if strings.Contains(stored, "store-key-1") {
		t.Errorf("the stored history holds the key: %s", stored)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.CSS("#history-list .history-open"))); err != nil {
		t.Fatal(err)
	}
	form, err := chromedp.Run(tctx, chromedp.Poll[string](`(l => l && l.value === "2" ? l.value + " " + document.getElementById("f-query-species").value : null)(document.getElementById("f-query-limit"))`,
		chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil || form != "2 cat" {
		t.Fatalf("the reopened form: got %q (%v); want limit 2, species cat", form, err)
	}

	// Copy the Python snippet without the Clipboard API, and run it.
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`(() => {`+withoutClipboardAPI+`
		const kind = document.getElementById("snippet-kind");
		kind.value = "python"; kind.dispatchEvent(new Event("change", {bubbles: true}));
		return true; })()`)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`document.getElementById("curl").dataset.kind === "python"`,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the Code panel never showed Python: %v", err)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.CSS(".copy-snippet"))); err != nil {
		t.Fatal(err)
	}
	code, err := chromedp.Run(tctx, chromedp.Poll[string](`window.copiedText || null`, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil || !strings.Contains(code, "import requests") {
		t.Fatalf("copied %q (%v); want the Python snippet", code, err)
	}
	file := filepath.Join(t.TempDir(), "snippet.py")
	if err := os.WriteFile(file, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("python3", file).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "200 OK") || !strings.Contains(string(out), `"Tom"`) {
		t.Fatalf("python3 %s: %v\n%s\nthe snippet:\n%s", file, err, out, code)
	}
	upstream("the Python snippet")

	// Off with one setting, cleared with one action: a request sent then is not written.
	if err := chromedp.Do(tctx,
		chromedp.Click(chromedp.ID("history-link")), chromedp.WaitVisible(chromedp.ID("history-list")),
		chromedp.Click(chromedp.ID("history-on")), chromedp.WaitVisible(chromedp.ID("history-off")),
		chromedp.Click(chromedp.ID("history-clear")), chromedp.WaitVisible(chromedp.ID("history-empty")),
		chromedp.NavigateBack(), chromedp.WaitVisible(chromedp.ID("send")),
		chromedp.Click(chromedp.ID("send")), chromedp.WaitVisible(chromedp.ID("response-status")),
	); err != nil {
		t.Fatal(err)
	}
	upstream("Send with the history off")
	if left, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`localStorage.getItem("loupe.history") || ""`)); left != "" {
		t.Errorf("the history off and cleared: stored %s; want nothing", left)
	}
}

// TestHistoryKeepsAChatRequest sends a chat message, finds the request in the history and
// reopens it: the chat comes back with the message in its composer.
func TestHistoryKeepsAChatRequest(t *testing.T) {
	t.Parallel()
	ctx := openChat(t, startServer(t, func(c *server.Config) { c.ChatTokensPerSecond = 5000 }))
	const prompt = "A pricing card, please"
	chatAsk(t, ctx, prompt)
	chatWaitDone(t, ctx, 60*time.Second)
	tctx := within(t, ctx, 60*time.Second)
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("history-link")), chromedp.WaitVisible(chromedp.ID("history-list"))); err != nil {
		t.Fatal(err)
	}
	entry, _ := chromedp.Run(tctx, chromedp.Text(chromedp.CSS("#history-list .history-entry")))
	if !strings.Contains(entry, "POST") || !strings.Contains(entry, "/proxy/chat/v1/chat/completions") || !strings.Contains(entry, "200") {
		t.Fatalf("the history's entry: got %q; want POST /proxy/chat/v1/chat/completions, 200", entry)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.CSS("#history-list .history-open"))); err != nil {
		t.Fatal(err)
	}
	draft, err := chromedp.Run(tctx, chromedp.Poll[string](`(el => el && el.value ? el.value : null)(document.getElementById("chat-input"))`,
		chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil || draft != prompt {
		t.Fatalf("the reopened chat's composer: got %q (%v); want %q", draft, err, prompt)
	}
}

// exampleScriptID is the project the script workspace opens first (app.exampleScriptID).
const exampleScriptID = "1qvD3r1OzRDGF_lHoS8HkAyJtK9gP3kVhDjK5xXzDgBm2bN3eRIqLkHzE"

// TestHistoryKeepsWorkspaceAndWalkthroughCalls opens the script workspace (which reads the
// example project) and runs a walkthrough's first step: both requests are in the history,
// and the workspace's reopens its operation's form filled as it was sent.
func TestHistoryKeepsWorkspaceAndWalkthroughCalls(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	tctx := within(t, ctx, 60*time.Second)
	openPage(t, ctx, base+"/script/workspace")
	poller(t, tctx)("the example project's code", `(e => e && e.value.includes("function sendInvoices") ? "ok" : null)(document.getElementById("ws-editor"))`)
	poller(t, tctx)("the workspace's listing of processes in the history", `(localStorage.getItem("loupe.history") || "").includes("listScriptProcesses") ? "ok" : null`)
	openPage(t, ctx, base+"/walkthroughs/entities-search-then-lookup")
	if _, err := chromedp.Run(tctx, clickWhenEnabled("walk-run-step")); err != nil {
		t.Fatal(err)
	}
	waitStep(t, ctx, "search", "passed")

	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("history-link")), chromedp.WaitVisible(chromedp.ID("history-list"))); err != nil {
		t.Fatal(err)
	}
	entries, err := chromedp.Run(tctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#history-list .history-entry")].map(e => e.innerText.replace(/\s+/g, " "))`))
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(entries, "\n")
	for _, want := range []string{"/proxy/entities/", "/proxy/script/v1/projects/" + exampleScriptID + "/content", "/proxy/script/v1/processes:listScriptProcesses?"} {
		if !strings.Contains(all, want) {
			t.Errorf("the history holds\n%s\nwant a request to %s", all, want)
		}
	}
	stored, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`localStorage.getItem("loupe.history") || ""`))
	if strings.Contains(stored, "function sendInvoices") {
		t.Errorf("the history keeps a response body: %.300s", stored)
	}
	// Reopen the workspace's read of the project: its operation's form, filled as sent.
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.CSS(`#history-list .history-open[href^="/script/projects.getContent#"]`))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`(e => e && e.value === "`+exampleScriptID+`")(document.querySelector('.field[data-param="path:scriptId"] input'))`,
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Errorf("the reopened projects.getContent: the scriptId field is not %s: %v", exampleScriptID, err)
	}
}
