package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestChatKeepsTheMessageWhenToolsAreNotJSON sends a message with a tools field that is not
// JSON: the message stays in the composer, the tools field is marked invalid and its error
// shows beside it; fixing the tools sends the same message.
func TestChatKeepsTheMessageWhenToolsAreNotJSON(t *testing.T) {
	t.Parallel()
	ctx := openChat(t, "")
	chatEval[bool](t, ctx, `(() => { const el = document.getElementById("chat-tools"); el.value = "[{not json";
		el.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)
	if err := chromedp.Do(within(t, ctx, 20*time.Second),
		chromedp.SendKeys(chromedp.ID("chat-input"), "hello there"),
		chromedp.WaitEnabled(chromedp.ID("chat-send")),
		chromedp.Click(chromedp.ID("chat-send")),
	); err != nil {
		t.Fatal(err)
	}
	msg, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[string](
		`(e => e && e.textContent ? e.textContent : null)(document.getElementById("chat-tools-error"))`))
	if err != nil {
		t.Fatalf("no error beside the tools field: %v", err)
	}
	if !strings.Contains(msg, "JSON") {
		t.Errorf("tools error %q; want it to say the tools must be JSON", msg)
	}
	if got := chatEval[string](t, ctx, `document.getElementById("chat-tools").getAttribute("aria-invalid") || ""`); got != "true" {
		t.Errorf("tools aria-invalid = %q; want true", got)
	}
	if got := chatEval[string](t, ctx, `document.getElementById("chat-tools").getAttribute("aria-describedby") || ""`); !strings.Contains(got, "chat-tools-error") {
		t.Errorf("tools aria-describedby = %q; want it to name chat-tools-error", got)
	}
	if got := chatEval[string](t, ctx, `document.getElementById("chat-input").value`); got != "hello there" {
		t.Errorf("after a refused Send the composer holds %q; want the typed message", got)
	}
	if n := chatEval[int](t, ctx, `document.querySelectorAll(".chat-msg").length`); n != 0 {
		t.Errorf("%d messages in the conversation; want none sent", n)
	}
	// Fixing the tools clears the error; Send then takes the same message.
	chatEval[bool](t, ctx, `(() => { const el = document.getElementById("chat-tools"); el.value = "";
		el.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)
	if err := chromedp.Do(within(t, ctx, 20*time.Second), chromedp.WaitNotPresent(chromedp.ID("chat-tools-error")), chromedp.Click(chromedp.ID("chat-send")),
		chromedp.WaitVisible(chromedp.CSS(".chat-msg.user"))); err != nil {
		t.Fatal(err)
	}
	if got := chatEval[string](t, ctx, `document.querySelector(".chat-msg.user").textContent`); !strings.Contains(got, "hello there") {
		t.Errorf("the sent message reads %q; want the typed one", got)
	}
}
