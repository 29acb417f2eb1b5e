package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestTheChatHasAPermalinkAndARequestPreview opens the chat from a link holding settings and
// a draft message, edits them, and reads the request preview and its curl command: the link
// follows every change and never holds a key.
func TestTheChatHasAPermalinkAndARequestPreview(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/chat/createChatCompletion#v1&model=v0-1.5-md&stream=false&draft=hello%20link")
	tctx := within(t, ctx, 30*time.Second)
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`document.getElementById("chat-input") && document.getElementById("chat-input").value === "hello link" || null`,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.getElementById("chat-input") || {}).value`))
		t.Fatalf("the link's draft is not in the composer (it holds %q): %v", got, err)
	}
	if got, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.getElementById("chat-model").value + " " + document.getElementById("chat-stream").checked`)); got != "v0-1.5-md false" {
		t.Errorf("model and stream from the link: got %q; want v0-1.5-md false", got)
	}
	// The chat reads its own link: the form's decoder does not call its names unknown.
	if notice, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`(document.getElementById("notice") || {}).textContent || ""`)); notice != "" {
		t.Errorf("the page says %q about the chat's own link; want nothing", notice)
	}
	// Typing and a setting change go into the link.
	if err := chromedp.Do(tctx, chromedp.SendKeys(chromedp.ID("chat-input"), " again")); err != nil {
		t.Fatal(err)
	}
	chatEval[bool](t, ctx, `(() => { const el = document.getElementById("chat-system"); el.value = "Be brief.";
		el.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)
	hash, err := chromedp.Run(tctx, chromedp.Poll[string](`location.hash.includes("again") && location.hash.includes("system=") ? location.hash : null`,
		chromedp.WithPollingTimeout(5*time.Second)))
	if err != nil {
		t.Fatalf("the link did not follow the draft and the system prompt: %v", err)
	}
	if strings.Contains(strings.ToLower(hash), "key") || strings.Contains(strings.ToLower(hash), "bearer") {
		t.Errorf("the link %q holds something like a key", hash)
	}
	// The request preview and curl show the same request Send makes.
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.CSS("#chat-request summary")), chromedp.WaitVisible(chromedp.ID("curl"))); err != nil {
		t.Fatalf("unfolding the request preview: %v", err)
	}
	curl, _ := chromedp.Run(tctx, chromedp.Text(chromedp.ID("curl")))
	for _, want := range []string{"/proxy/chat/", "hello link again", "Be brief.", "v0-1.5-md"} {
		if !strings.Contains(curl, want) {
			t.Errorf("curl %q does not hold %q", curl, want)
		}
	}
	// Sending empties the draft, and the link with it.
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("chat-send")), chromedp.WaitVisible(chromedp.CSS(".chat-msg.user"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`!location.hash.includes("draft=") || null`, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Errorf("after Send the link still holds the draft")
	}
}
