package e2e

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// workspaceCode replaces the example project's code: greet returns a value and logs, explode
// throws a TypeError on line 7.
const workspaceCode = "function greet(name) {\n" +
	"  console.log('greeting', name);\n" +
	"  return 'Hello, ' + name + '!';\n" +
	"}\n" +
	"\n" +
	"function explode(order) {\n" +
	"  return order.items.length;\n" +
	"}\n"

// TestScriptWorkspaceEditSaveRun edits a function in the script workspace, saves it, runs it
// and sees its result and logs; then runs a function that throws a TypeError, sees its stack,
// and follows the frame's link to the line in the editor.
func TestScriptWorkspaceEditSaveRun(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/script/workspace")
	tctx := within(t, ctx, 60*time.Second)
	poll := poller(t, tctx)
	poll("the example project's code", `(e => e && e.value.includes("function sendInvoices") ? "ok" : null)(document.getElementById("ws-editor"))`)

	setWorkspaceCode(t, tctx, workspaceCode)
	if _, err := chromedp.Run(tctx, clickWhenEnabled("ws-save")); err != nil {
		t.Fatal(err)
	}
	poll("the saved functions", `(s => s && [...s.options].some(o => o.text === "explode(order)") ? "ok" : null)(document.getElementById("ws-function"))`)
	if got := poll("the request sent", `(c => c && c.textContent.includes("PUT /proxy/script/v1/projects/") ? c.textContent : null)(document.querySelector("#ws-calls .ws-call-line"))`); !strings.HasSuffix(got, "/content") {
		t.Errorf("the last request: got %q; want PUT …/content", got)
	}

	runInWorkspace(t, tctx, poll, "greet", "name", `"Ada"`)
	if got := poll("greet's result", `(r => r ? r.textContent : null)(document.getElementById("ws-result"))`); got != `"Hello, Ada!"` {
		t.Errorf("greet: got %q; want \"Hello, Ada!\"", got)
	}
	if got := poll("greet's logs", `(l => l && l.textContent.includes("greeting") ? l.textContent : null)(document.getElementById("ws-logs"))`); got != "greeting Ada" {
		t.Errorf("greet's logs: got %q; want greeting Ada", got)
	}

	runInWorkspace(t, tctx, poll, "explode", "order", `{}`)
	got := poll("explode's error", `(e => e ? e.textContent : null)(document.querySelector("#ws-error .ws-error-type"))`)
	if got != "TypeError: " {
		t.Errorf("explode: error type got %q; want TypeError", got)
	}
	frame := poll("the stack frame", `(f => f ? f.textContent : null)(document.querySelector("#ws-error .ws-frame"))`)
	if frame != "explode @ Code.gs:7" {
		t.Errorf("the frame: got %q; want explode @ Code.gs:7, as Apps Script writes it", frame)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.CSS("#ws-error .ws-frame"))); err != nil {
		t.Fatal(err)
	}
	line := poll("the cursor on the line", `(el => document.activeElement === el ? String(el.value.slice(0, el.selectionStart).split("\n").length) : null)(document.getElementById("ws-editor"))`)
	if line != "7" {
		t.Errorf("the cursor: got line %s; want line 7", line)
	}
	sel := poll("the selected text", `(el => el.value.slice(el.selectionStart, el.selectionEnd))(document.getElementById("ws-editor"))`)
	if strings.TrimSpace(sel) != "return order.items.length;" {
		t.Errorf("the selection: got %q; want the line of the throw", sel)
	}

	// New version, then Deploy that version.
	if _, err := chromedp.Run(tctx, clickWhenEnabled("ws-version")); err != nil {
		t.Fatal(err)
	}
	label := poll("the version", `(b => b && !b.disabled ? b.textContent : null)(document.getElementById("ws-deploy"))`)
	if _, err := chromedp.Run(tctx, clickWhenEnabled("ws-deploy")); err != nil {
		t.Fatal(err)
	}
	sent := poll("the deployment", `(c => c && c.textContent.includes("projects.deployments.create") ? c.textContent : null)(document.querySelector("#ws-calls .ws-call summary"))`)
	if label != "Deploy version 4" || !strings.Contains(sent, "POST /proxy/script/v1/projects/") || !strings.HasSuffix(sent, "→ 200") {
		t.Errorf("deploying: got the button %q and the request %q; want version 4 deployed with 200", label, sent)
	}

	// A syntax error is marked at its line as soon as the typing stops, before any save: the
	// last request sent stays the one before, and the mark's link puts the cursor on the line.
	lastCall := poll("the last request", `(c => c ? c.textContent : null)(document.querySelector("#ws-calls .ws-call-line"))`)
	setWorkspaceCode(t, tctx, "function f() {\n  return [1, ;\n}\n")
	lint := poll("the syntax error marked before saving", `(e => e && e.textContent.includes("Syntax error") ? e.textContent : null)(document.getElementById("ws-lint"))`)
	if !strings.Contains(lint, "Syntax error on line 2: Unexpected token ;") || strings.Contains(lint, "SyntaxError") {
		t.Errorf("the syntax check: got %q; want the line and the problem, said once in words", lint)
	}
	if got := poll("the last request", `(c => c ? c.textContent : null)(document.querySelector("#ws-calls .ws-call-line"))`); got != lastCall {
		t.Errorf("the syntax check sent %q; want no operation sent before Save", got)
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("ws-lint-line"))); err != nil {
		t.Fatal(err)
	}
	if line := poll("the cursor on the marked line", `(el => document.activeElement === el && el.getAttribute("aria-invalid") === "true" ? String(el.value.slice(0, el.selectionStart).split("\n").length) : null)(document.getElementById("ws-editor"))`); line != "2" {
		t.Errorf("the cursor after Go to line: got line %s; want 2", line)
	}
	// Saving anyway is refused by the API, which says the same.
	if _, err := chromedp.Run(tctx, clickWhenEnabled("ws-save")); err != nil {
		t.Fatal(err)
	}
	msg := poll("the refused save", `(e => e && e.textContent.includes("Not saved") ? e.textContent : null)(document.getElementById("ws-save-error"))`)
	if !strings.Contains(msg, "Not saved: syntax error on line 2 of Code: Unexpected token ;") || strings.Contains(msg, "SyntaxError") {
		t.Errorf("the refused save: got %q; want the line and file, said once in words", msg)
	}
	if twice := poll("the check's mark", `(e => e ? e.textContent.trim() || "(none)" : null)(document.getElementById("ws-lint"))`); twice != "(none)" {
		t.Errorf("after the refused save the check still says %q; want the error said once", twice)
	}
	line = poll("the cursor on the syntax error", `(el => document.activeElement === el && el.getAttribute("aria-invalid") === "true" ? String(el.value.slice(0, el.selectionStart).split("\n").length) : null)(document.getElementById("ws-editor"))`)
	if line != "2" {
		t.Errorf("the cursor after a refused save: got line %s; want 2", line)
	}
}

// TestScriptWorkspaceNewProject creates a project in the workspace, adds a server file to it,
// saves and runs its function: the run goes to the new project.
func TestScriptWorkspaceNewProject(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/script/workspace")
	tctx := within(t, ctx, 60*time.Second)
	poll := poller(t, tctx)
	poll("the example project", `(e => e && e.value.includes("function sendInvoices") ? "ok" : null)(document.getElementById("ws-editor"))`)
	if err := chromedp.Do(tctx, chromedp.SendKeys(chromedp.ID("ws-title"), "Scratch"), chromedp.Click(chromedp.ID("ws-create"))); err != nil {
		t.Fatal(err)
	}
	id := poll("the new project", `(i => i && i.value && !i.value.startsWith("1qvD3r") ? i.value : null)(document.getElementById("ws-script-id"))`)
	poll("its manifest", `(e => e && e.value.includes("timeZone") ? "ok" : null)(document.getElementById("ws-editor"))`)
	if err := chromedp.Do(tctx, chromedp.SendKeys(chromedp.ID("ws-new-file"), "Main"), chromedp.Click(chromedp.ID("ws-add-file"))); err != nil {
		t.Fatal(err)
	}
	poll("the new file", `(e => e && e.value.includes("function myFunction") ? "ok" : null)(document.getElementById("ws-editor"))`)
	setWorkspaceCode(t, tctx, "function answer() {\n  return 6 * 7;\n}\n")
	if _, err := chromedp.Run(tctx, clickWhenEnabled("ws-save")); err != nil {
		t.Fatal(err)
	}
	poll("the saved function", `(s => s && [...s.options].some(o => o.text === "answer()") ? "ok" : null)(document.getElementById("ws-function"))`)
	if _, err := chromedp.Run(tctx, clickWhenEnabled("ws-run")); err != nil {
		t.Fatal(err)
	}
	if got := poll("the result", `(r => r ? r.textContent : null)(document.getElementById("ws-result"))`); got != "42" {
		t.Errorf("answer: got %q; want 42", got)
	}
	sent := poll("the run request", `(c => c ? c.textContent : null)([...document.querySelectorAll("#ws-calls .ws-call-line")].find(c => c.textContent.includes(":run")))`)
	if sent != "POST /proxy/script/v1/scripts/"+id+":run" {
		t.Errorf("the run: got %q; want it sent to the new project %s", sent, id)
	}
}

// setWorkspaceCode replaces the text of the file in the workspace's editor, as typing does.
func setWorkspaceCode(t *testing.T, ctx context.Context, code string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		const el = document.getElementById("ws-editor");
		el.value = `+strconv.Quote(code)+`;
		el.dispatchEvent(new Event("input", {bubbles: true}));
		return true;
	})()`)); err != nil {
		t.Fatalf("editing the code: %v", err)
	}
}

// runInWorkspace chooses function fn in the workspace's run form, types arg as the value of
// its parameter param (none when param is ""), and clicks Run.
func runInWorkspace(t *testing.T, ctx context.Context, poll func(what, expr string) string, fn, param, arg string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		const s = document.getElementById("ws-function");
		s.value = `+strconv.Quote(fn)+`;
		s.dispatchEvent(new Event("change", {bubbles: true}));
		return true;
	})()`)); err != nil {
		t.Fatalf("choosing %s: %v", fn, err)
	}
	if param != "" {
		poll("the parameter field of "+fn, `(l => l && l.textContent === `+strconv.Quote(param)+` ? "ok" : null)(document.querySelector("label[for=ws-arg-0]"))`)
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
			const el = document.getElementById("ws-arg-0");
			el.value = `+strconv.Quote(arg)+`;
			el.dispatchEvent(new Event("input", {bubbles: true}));
			return true;
		})()`)); err != nil {
			t.Fatalf("typing the parameter of %s: %v", fn, err)
		}
	}
	if _, err := chromedp.Run(ctx, clickWhenEnabled("ws-run")); err != nil {
		t.Fatal(err)
	}
}

// poller returns a function that waits up to 20 s for a JavaScript expression to give a
// non-null string and returns it, failing the test with what it waited for.
func poller(t *testing.T, ctx context.Context) func(what, expr string) string {
	return func(what, expr string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Poll[string](expr, chromedp.WithPollingTimeout(20*time.Second)))
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		return v
	}
}
