package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"loupe/server"
)

// TestHistoryKeepsAChatRequest sends a chat message, finds the request in the history and
// reopens it: the chat comes back with the message in its composer.
func TestHistoryKeepsAChatRequest(t *testing.T) {
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
