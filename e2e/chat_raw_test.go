package e2e

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestChatRawShowsTheRequestAndTheStreamAsReceived sends a chat message and opens the answer's
// Raw view: it shows the request that was sent, whose JSON body carries the message, and the
// stream as received, SSE event after event with their data, to the closing data: [DONE].
func TestChatRawShowsTheRequestAndTheStreamAsReceived(t *testing.T) {
	t.Parallel()
	ctx := openChat(t, "")
	const prompt = "raw view check: a haiku about pagination"
	chatAsk(t, ctx, prompt)
	chatWaitDone(t, ctx, 60*time.Second)
	if n := chatEval[int](t, ctx, `document.querySelectorAll(".chat-raw-body").length`); n != 0 {
		t.Fatalf("%d raw views open before Raw was pressed; want them closed", n)
	}
	if err := chromedp.Do(within(t, ctx, 10*time.Second),
		chromedp.Click(chromedp.CSS(".chat-msg.assistant .chat-raw-toggle")),
		chromedp.WaitVisible(chromedp.CSS(".chat-raw-body")),
	); err != nil {
		t.Fatalf("opening the Raw view: %v", err)
	}
	if got := chatEval[string](t, ctx, `document.querySelector(".chat-raw-toggle").getAttribute("aria-expanded")`); got != "true" {
		t.Errorf("the Raw button's aria-expanded: got %q; want true", got)
	}
	request := chatEval[string](t, ctx, `document.querySelector("[id^=chat-raw-][id$=-request]").textContent`)
	line, rest, _ := strings.Cut(request, "\n")
	if !strings.HasPrefix(line, "POST ") || !strings.Contains(line, "/chat/completions") {
		t.Errorf("request line: got %q; want POST to the chat completions URL", line)
	}
	_, body, ok := strings.Cut(rest, "\n\n")
	var sent struct {
		Stream   bool `json:"stream"`
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(body), &sent); !ok || err != nil {
		t.Fatalf("the raw request's body is not JSON (%v): %q", err, request)
	}
	last := sent.Messages[len(sent.Messages)-1]
	if last.Role != "user" || last.Content != prompt || !sent.Stream {
		t.Errorf("the raw request's body: got %s; want a streamed request whose last message is the user's %q", body, prompt)
	}
	response := chatEval[string](t, ctx, `document.querySelector("[id^=chat-raw-][id$=-response]").textContent`)
	head, stream, _ := strings.Cut(response, "\n\n")
	if !strings.HasPrefix(head, "HTTP 200") || !strings.Contains(strings.ToLower(head), "content-type: text/event-stream") {
		t.Errorf("response head: got %q; want HTTP 200 with the event-stream content type", head)
	}
	events := strings.Split(strings.TrimRight(stream, "\n"), "\n\n")
	if len(events) < 3 || events[len(events)-1] != "data: [DONE]" {
		t.Fatalf("stream: got %d events ending %q; want several, the last data: [DONE]", len(events), events[len(events)-1])
	}
	var text strings.Builder
	for _, ev := range events[:len(events)-1] {
		data, ok := strings.CutPrefix(ev, "data: ")
		var chunk struct {
			Choices []struct {
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if !ok || json.Unmarshal([]byte(data), &chunk) != nil {
			t.Fatalf("event %q: want data: and a JSON chunk", ev)
		}
		for _, c := range chunk.Choices {
			text.WriteString(c.Delta.Content)
		}
	}
	// The answer shown is the events' content rendered as Markdown: its words are theirs.
	shown := chatEval[string](t, ctx, lastAnswerText)
	words := regexp.MustCompile(`[A-Za-z]{3,}`).FindAllString(shown, 12)
	if len(words) == 0 {
		t.Fatalf("no answer shown: %q", shown)
	}
	for _, w := range words {
		if !strings.Contains(text.String(), w) {
			t.Errorf("the answer shows %q, which no event's data holds (content %.300q)", w, text.String())
		}
	}
}

// chatAnswerWithRawOpen asks the chat a question, waits for the whole answer and opens its
// Raw view (for the accessibility checks).
func chatAnswerWithRawOpen(t *testing.T, ctx context.Context) {
	t.Helper()
	chatAsk(t, ctx, "a short poem")
	chatWaitDone(t, ctx, 60*time.Second)
	if err := chromedp.Do(within(t, ctx, 10*time.Second),
		chromedp.Click(chromedp.CSS(".chat-msg.assistant .chat-raw-toggle")),
		chromedp.WaitVisible(chromedp.CSS(".chat-raw-body")),
	); err != nil {
		t.Fatalf("opening the Raw view: %v", err)
	}
}
