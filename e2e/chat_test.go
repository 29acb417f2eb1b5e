package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// openChat opens the chat completions page of the server at base ("" starts one) and waits
// for the chat view.
func openChat(t *testing.T, base string) context.Context {
	t.Helper()
	if base == "" {
		base = startServer(t)
	}
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/chat/createChatCompletion")
	if err := chromedp.Do(within(t, ctx, 20*time.Second), chromedp.WaitVisible(chromedp.ID("chat-view"))); err != nil {
		t.Fatalf("no chat view: %v", err)
	}
	return ctx
}

// chatEval runs a JavaScript expression and returns its value.
func chatEval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// chatAsk types a prompt the way a user does and sends it with the Send button.
func chatAsk(t *testing.T, ctx context.Context, prompt string) {
	t.Helper()
	if err := chromedp.Do(within(t, ctx, 20*time.Second),
		chromedp.SendKeys(chromedp.ID("chat-input"), prompt),
		chromedp.WaitEnabled(chromedp.ID("chat-send")),
		chromedp.Click(chromedp.ID("chat-send")),
		chromedp.WaitVisible(chromedp.CSS(".chat-msg.assistant")),
	); err != nil {
		t.Fatalf("asking %q: %v", prompt, err)
	}
}

// chatWaitDone waits until the latest answer stops streaming and returns its text.
func chatWaitDone(t *testing.T, ctx context.Context, d time.Duration) string {
	t.Helper()
	text, err := chromedp.Run(within(t, ctx, d), chromedp.Poll[string](`(() => {
		const all = document.querySelectorAll(".chat-msg.assistant");
		const last = all[all.length - 1];
		return last && !last.classList.contains("streaming") ? last.textContent : null;
	})()`, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(d)))
	if err != nil {
		t.Fatalf("the answer did not finish: %v", err)
	}
	return text
}

// lastAnswerText is the rendered Markdown of the latest answer.
const lastAnswerText = `(() => { const a = document.querySelectorAll(".chat-msg.assistant .chat-md"); return a.length ? a[a.length-1].textContent : ""; })()`

func TestChatAnswerGrowsWhileItStreams(t *testing.T) {
	ctx := openChat(t, "")
	// Record the answer's length on every animation frame, in the page itself.
	chatEval[bool](t, ctx, `(() => {
		window.__lens = [];
		const tick = () => { window.__lens.push(`+lastAnswerText+`.length); requestAnimationFrame(tick); };
		requestAnimationFrame(tick);
		return true;
	})()`)
	chatAsk(t, ctx, "a todo list app")
	chatWaitDone(t, ctx, 90*time.Second)
	lens := chatEval[[]int](t, ctx, `window.__lens`)
	// The open end of the answer is rendered as it stands: "**List" shows its asterisks until
	// the closing "**" arrives, and then the text is 2 (or 4) characters shorter. A bigger
	// drop would mean rendered text was lost.
	const markup = 4
	distinct, prev := 0, -1
	for _, n := range lens {
		if n < prev-markup {
			t.Fatalf("the answer shrank from %d to %d characters while streaming", prev, n)
		}
		distinct, prev = distinct+min(1, max(0, n-prev)), n
	}
	t.Logf("answer of %d characters reached the DOM in %d distinct steps over %d frames", prev, distinct, len(lens))
	if distinct < 30 {
		t.Errorf("got %d distinct lengths; want the answer to grow in many steps (30 or more), not at the end", distinct)
	}
	metrics := chatEval[string](t, ctx, `document.getElementById("chat-metrics").textContent`)
	for _, want := range []string{"TTFT", "tokens/s", "completion", "prompt", "total"} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics %q lack %q", metrics, want)
		}
	}
	if n := chatEval[int](t, ctx, `document.querySelectorAll(".chat-msg.assistant .copy-code").length`); n == 0 {
		t.Error("got no copy button on the answer's code block")
	}
}

func TestChatStopKeepsThePartialAnswer(t *testing.T) {
	ctx := openChat(t, "")
	chatAsk(t, ctx, "a table app with 3000 rows")
	if _, err := chromedp.Run(within(t, ctx, 30*time.Second), chromedp.Poll[bool](lastAnswerText+`.length > 300`)); err != nil {
		t.Fatalf("the answer did not start: %v", err)
	}
	if err := chromedp.Do(within(t, ctx, 5*time.Second), chromedp.Click(chromedp.ID("chat-stop"))); err != nil {
		t.Fatalf("clicking Stop: %v", err)
	}
	if _, err := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Poll[bool](`document.getElementById("chat-metrics").textContent.includes("stopped")`)); err != nil {
		t.Fatalf("the answer does not say it stopped: %v", err)
	}
	stopped := chatEval[int](t, ctx, lastAnswerText+`.length`)
	time.Sleep(1500 * time.Millisecond)
	later := chatEval[int](t, ctx, lastAnswerText+`.length`)
	if stopped < 300 || later != stopped {
		t.Errorf("got %d characters at Stop and %d later; want the partial answer kept, and no growth", stopped, later)
	}
	if busy := chatEval[bool](t, ctx, `!!document.querySelector(".chat-msg.assistant.streaming")`); busy {
		t.Error("the answer still says it is streaming")
	}
}

func TestChatImageRoundTrip(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for x := range 64 {
		img.Set(x, x%48, color.RGBA{R: 200, A: 255})
	}
	var buf bytes.Buffer
	path := filepath.Join(t.TempDir(), "dot.png")
	if err := errors.Join(png.Encode(&buf, img), os.WriteFile(path, buf.Bytes(), 0o644)); err != nil {
		t.Fatal(err)
	}
	ctx := openChat(t, "")
	if err := chromedp.Do(within(t, ctx, 20*time.Second),
		chromedp.SetUploadFiles(chromedp.ID("chat-image"), []string{path}),
		chromedp.WaitVisible(chromedp.ID("chat-image-thumb")),
	); err != nil {
		t.Fatalf("attaching the image: %v", err)
	}
	chatAsk(t, ctx, "make a gallery of this picture")
	answer := chatWaitDone(t, ctx, 90*time.Second)
	if !strings.Contains(answer, "PNG image, 64×48 pixels") {
		t.Errorf("the model did not acknowledge the image's format and size: %.300q", answer)
	}
	if n := chatEval[int](t, ctx, `document.querySelectorAll(".chat-msg.user .chat-thumb img").length`); n != 1 {
		t.Errorf("got %d thumbnails in the conversation; want 1", n)
	}
}

// chatToolCall asks for a tool call and waits for its card.
func chatToolCall(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Click(chromedp.ID("chat-tools-example"))); err != nil {
		t.Fatalf("filling the example tool: %v", err)
	}
	if _, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[bool](`document.getElementById("chat-tools").value.includes("get_weather")`)); err != nil {
		t.Fatalf("the example tool is not in the tools field: %v", err)
	}
	chatAsk(t, ctx, "use the get_weather tool")
	chatWaitDone(t, ctx, 60*time.Second)
	card, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Text(chromedp.CSS(".tool-call-card")))
	if err != nil {
		t.Fatalf("no tool call card: %v", err)
	}
	if !strings.Contains(card, "get_weather") || !strings.Contains(card, `"city"`) {
		t.Fatalf("the card %q lacks the function or its arguments", card)
	}
}

// stillJS, called with a selector, is true once the element has stayed at the same place in
// the viewport for three calls in a row.
const stillJS = `((sel) => { const e = document.querySelector(sel); if (!e) return null;
	const r = e.getBoundingClientRect(), at = Math.round(r.x) + "," + Math.round(r.y), w = window.__still;
	if (w && w.sel === sel && w.at === at) return ++w.n >= 3 || null;
	window.__still = {sel, at, n: 0}; return null; })`

// chatAnswerTool answers the first tool call with result and waits for the next answer.
func chatAnswerTool(t *testing.T, ctx context.Context, result string) string {
	t.Helper()
	quoted, _ := json.Marshal(result)
	chatEval[bool](t, ctx, `(() => {
		const el = document.querySelector(".tool-result-input");
		el.value = `+string(quoted)+`;
		el.dispatchEvent(new Event("input", {bubbles: true}));
		return true;
	})()`)
	// The question was scrolled to the top smoothly: on a loaded machine the scroll can still
	// be moving the button when a click is aimed at it, and the click lands beside it.
	if _, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[bool](stillJS+`(".tool-result-send")`, chromedp.WithPollingInterval(100*time.Millisecond))); err != nil {
		t.Fatalf("the tool result's button never stopped moving: %v", err)
	}
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Click(chromedp.CSS(".tool-result-send"))); err != nil {
		t.Fatalf("sending the tool result: %v", err)
	}
	if _, err := chromedp.Run(within(t, ctx, 20*time.Second), chromedp.Poll[bool](`document.querySelectorAll(".chat-msg.assistant").length === 2`)); err != nil {
		state := chatEval[string](t, ctx, `(() => { const v = document.getElementById("chat-view"); return (v ? v.innerText : "no chat view").slice(-300) + " | input: " + (document.querySelector(".tool-result-input") || {}).value + " | at the button: " + (() => { const r = document.querySelector(".tool-result-send").getBoundingClientRect(); const e = document.elementFromPoint(r.x + r.width/2, r.y + r.height/2); return r.y + " " + innerHeight + " " + (e ? e.outerHTML.slice(0, 200) : "none") })() })()`)
		t.Fatalf("no second answer after the tool result: %v; the chat shows: %s", err, state)
	}
	return chatWaitDone(t, ctx, 60*time.Second)
}

func TestChatToolCallCardAndResult(t *testing.T) {
	ctx := openChat(t, "")
	chatToolCall(t, ctx)
	answer := chatAnswerTool(t, ctx, `{"temperature": 21, "unit": "celsius"}`)
	if !strings.Contains(answer, "get_weather tool returned") || !strings.Contains(answer, "21") {
		t.Errorf("the answer does not use the tool result: %.300q", answer)
	}
}

func TestChatNeverRunsMarkupFromAnAnswer(t *testing.T) {
	ctx := openChat(t, "")
	chatToolCall(t, ctx)
	// The model quotes a tool's result in its answer: hostile markup reaches the Markdown.
	hostile := `<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script> [x](javascript:window.__pwned=3)`
	answer := chatAnswerTool(t, ctx, hostile)
	if !strings.Contains(answer, "onerror") {
		t.Fatalf("the answer does not quote the markup, so this test proves nothing: %.300q", answer)
	}
	time.Sleep(500 * time.Millisecond)
	if pwned := chatEval[bool](t, ctx, `window.__pwned !== undefined`); pwned {
		t.Fatal("markup from the answer ran in Loupe's page")
	}
	n := chatEval[int](t, ctx, `document.querySelectorAll(".chat-md script, .chat-md img[onerror], .chat-md a[href^='javascript']").length`)
	if n != 0 {
		t.Errorf("got %d active elements in the rendered answer; want none", n)
	}
}

// openPreviewAndProbe opens the preview of the last answer's app and returns what the probe in
// its frame reported: "blocked | <error> | Title: ..." when parent.document was out of reach.
func openPreviewAndProbe(t *testing.T, ctx context.Context) string {
	t.Helper()
	if err := chromedp.Do(within(t, ctx, 10*time.Second),
		chromedp.Click(chromedp.CSS(".preview-code")),
		chromedp.WaitVisible(chromedp.CSS(".html-preview iframe")),
	); err != nil {
		t.Fatalf("opening the preview: %v", err)
	}
	// The probe in the frame touches parent.document and posts what happened.
	parent, err := chromedp.Run(within(t, ctx, 20*time.Second), chromedp.Poll[string](
		`(() => { const s = document.querySelector(".html-preview .preview-status"); return s && s.dataset.parent !== "unknown" ? s.dataset.parent + " | " + s.textContent : null; })()`))
	if err != nil {
		t.Fatalf("the app in the preview did not run: %v", err)
	}
	return parent
}

func TestChatPreviewRunsTheAppIsolated(t *testing.T) {
	ctx := openChat(t, "")
	chatAsk(t, ctx, "a counter app")
	chatWaitDone(t, ctx, 90*time.Second)
	parent := openPreviewAndProbe(t, ctx)
	if !strings.HasPrefix(parent, "blocked") || !strings.Contains(parent, "SecurityError") || !strings.Contains(parent, "Title:") {
		t.Errorf("got %q; want the app running with parent.document blocked by a SecurityError", parent)
	}
	frame := chatEval[string](t, ctx, `(() => { const f = document.querySelector(".html-preview iframe");
		return [f.getAttribute("sandbox"), String(f.contentDocument === null), new URL(f.src).pathname].join(","); })()`)
	if frame != "allow-scripts,true,/preview" {
		t.Errorf("got sandbox, contentDocument hidden, path = %q; want allow-scripts,true,/preview", frame)
	}
}

func TestChatErrorsAppearInline(t *testing.T) {
	ctx := openChat(t, "")
	chatEval[bool](t, ctx, `(() => { const m = document.getElementById("chat-model"); m.value = "no-such-model";
		m.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)
	chatAsk(t, ctx, "hello")
	msg, err := chromedp.Run(within(t, ctx, 20*time.Second), chromedp.Text(chromedp.CSS(".chat-msg.assistant .chat-error")))
	if err != nil {
		t.Fatalf("no inline error: %v", err)
	}
	if !strings.Contains(msg, "404") || !strings.Contains(msg, "no-such-model") {
		t.Errorf("got %q; want the status and the API's message naming the model", msg)
	}
	// A conversation longer than the context window: the API's 400 shows inline.
	chatEval[bool](t, ctx, `(() => { const m = document.getElementById("chat-model"); m.value = "v0-1.0-md";
		m.dispatchEvent(new Event("change", {bubbles: true}));
		const el = document.getElementById("chat-input"); el.value = "lorem ".repeat(140000);
		el.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)
	if err := chromedp.Do(within(t, ctx, 20*time.Second), chromedp.Click(chromedp.ID("chat-send"))); err != nil {
		t.Fatal(err)
	}
	msg, err = chromedp.Run(within(t, ctx, 30*time.Second), chromedp.Poll[string](
		`(() => { const e = document.querySelectorAll(".chat-msg.assistant .chat-error"); return e.length === 2 ? e[1].textContent : null; })()`))
	if err != nil {
		t.Fatalf("no inline error for a too long conversation: %v", err)
	}
	if !strings.Contains(msg, "context_length_exceeded") || !strings.Contains(msg, "400") {
		t.Errorf("got %q; want a 400 context_length_exceeded with the API's message", msg)
	}
}

func TestChatWithoutStreamAndCtrlEnter(t *testing.T) {
	ctx := openChat(t, "")
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Click(chromedp.ID("chat-stream"))); err != nil {
		t.Fatalf("turning streaming off: %v", err)
	}
	if on := chatEval[bool](t, ctx, `document.getElementById("chat-stream").checked`); on {
		t.Fatal("the stream toggle is still on")
	}
	// Ctrl+Enter in the message field sends it.
	if err := chromedp.Do(within(t, ctx, 10*time.Second),
		chromedp.SendKeys(chromedp.ID("chat-input"), "a counter app"),
		chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.WaitVisible(chromedp.CSS(".chat-msg.assistant")),
	); err != nil {
		t.Fatalf("sending with Ctrl+Enter: %v", err)
	}
	answer := chatWaitDone(t, ctx, 30*time.Second)
	if !strings.Contains(answer, "index.html") {
		t.Errorf("got %.200q; want the whole answer at once", answer)
	}
	if left := chatEval[string](t, ctx, `document.getElementById("chat-input").value`); left != "" {
		t.Errorf("the message field still holds %q after sending", left)
	}
}
