package e2e

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"loupe/server"
)

// cutAfter passes n bytes of a body, then fails like a broken connection once release is
// closed (or after 30 s): a browser drops what it received but the page has not read yet when
// a connection breaks, so the test cuts only once the page shows part of the answer.
type cutAfter struct {
	io.ReadCloser
	n       int
	release <-chan struct{}
}

func (c *cutAfter) Read(p []byte) (int, error) {
	if c.n <= 0 {
		select {
		case <-c.release:
		case <-time.After(30 * time.Second):
		}
		return 0, errors.New("connection cut by the test")
	}
	n, err := c.ReadCloser.Read(p[:min(len(p), c.n)])
	c.n -= n
	return n, err
}

// chatCutTurn waits until the latest answer ends cut, with its error and a Send again button,
// and returns the error's text.
func chatCutTurn(t *testing.T, ctx context.Context, d time.Duration) string {
	t.Helper()
	msg, err := chromedp.Run(within(t, ctx, d), chromedp.Poll[string](`(() => {
		const all = document.querySelectorAll(".chat-msg.assistant"), last = all[all.length - 1];
		const e = last && !last.classList.contains("streaming") && last.querySelector(".chat-error[role=alert]");
		return e && e.querySelector("#chat-retry") ? e.textContent : null; })()`,
		chromedp.WithPollingInterval(50*time.Millisecond)))
	if err != nil {
		t.Fatalf("the cut answer shows no error with a Send again button: %v", err)
	}
	return msg
}

// chatPressSendAgain presses Send again from the keyboard (it is a button in the tab order,
// Enter activates it), and checks that the focus then waits in the message field.
func chatPressSendAgain(t *testing.T, ctx context.Context) {
	t.Helper()
	if tab := chatEval[int](t, ctx, `document.getElementById("chat-retry").tabIndex`); tab < 0 {
		t.Errorf("Send again has tabindex %d; want it in the tab order", tab)
	}
	if err := chromedp.Do(within(t, ctx, 10*time.Second),
		chromedp.Focus(chromedp.ID("chat-retry")),
		chromedp.KeyEvent("\r"),
		chromedp.WaitNotPresent(chromedp.ID("chat-retry")),
	); err != nil {
		t.Fatalf("pressing Send again: %v", err)
	}
	if _, err := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.Poll[bool](`document.activeElement && document.activeElement.id === "chat-input" || null`)); err != nil {
		t.Errorf("after Send again the focus is on %q; want the message field", chatEval[string](t, ctx, `document.activeElement ? document.activeElement.id || document.activeElement.tagName : ""`))
	}
}

// chatCheckOneExchange checks that the conversation is the question once and one complete
// answer: Send again neither repeated nor lost the user's message.
func chatCheckOneExchange(t *testing.T, ctx context.Context, question string) {
	t.Helper()
	users := chatEval[[]string](t, ctx, `[...document.querySelectorAll(".chat-msg.user .chat-text")].map(e => e.textContent)`)
	if len(users) != 1 || users[0] != question {
		t.Errorf("the user's messages: got %q; want [%q] once", users, question)
	}
	if n := chatEval[int](t, ctx, `document.querySelectorAll(".chat-msg.assistant").length`); n != 1 {
		t.Errorf("got %d answers; want the one sent again in the cut one's place", n)
	}
	if e := chatEval[string](t, ctx, `(document.querySelector(".chat-msg.assistant .chat-error") || {}).textContent || ""`); e != "" {
		t.Errorf("the answer sent again shows the error %q", e)
	}
	if state := chatEval[string](t, ctx, `document.getElementById("chat-metrics").textContent`); !strings.Contains(state, "state stop") {
		t.Errorf("metrics %q; want the answer finished (stop)", state)
	}
	if text := chatEval[string](t, ctx, lastAnswerText); !strings.Contains(text, "</html>") {
		t.Errorf("the answer sent again ends %q; want the whole app", text[max(0, len(text)-200):])
	}
}

// TestChatSendAgainAfterACut: a proxy in front of Loupe breaks the connection in the middle of
// an answer. The turn ends with the cut explained, what arrived kept, and Send again; its link,
// opened again, shows the answer cut with Send again, whose request the preview shows; pressed
// from the keyboard, it sends exactly the request that was cut, the new answer takes the cut
// one's place, and the link holds the finished conversation. (The replicas' stream test sends
// again from the live turn.)
func TestChatSendAgainAfterACut(t *testing.T) {
	base := startServer(t, func(c *server.Config) { c.ChatTokensPerSecond = 1000 })
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.FlushInterval = -1
	rp.ErrorLog = log.New(io.Discard, "", 0)
	release := make(chan struct{})
	var streams atomic.Int32
	rp.ModifyResponse = func(r *http.Response) error {
		if strings.Contains(r.Header.Get("Content-Type"), "text/event-stream") && streams.Add(1) == 1 {
			r.Body = &cutAfter{r.Body, 30000, release} // the first answer only
		}
		return nil
	}
	var mu sync.Mutex
	var sent []string // the chat requests' bodies, as they reached the proxy
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" && strings.HasPrefix(r.URL.Path, "/proxy/chat/") {
			b, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(b))
			mu.Lock()
			sent = append(sent, string(b))
			mu.Unlock()
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)

	const question = "a counter"
	ctx := openChat(t, front.URL)
	chatAsk(t, ctx, question)
	if _, err := chromedp.Run(within(t, ctx, 60*time.Second), chromedp.Poll[bool](lastAnswerText+`.length >= 100 || null`)); err != nil {
		t.Fatalf("the answer never showed its first 100 characters: %v", err)
	}
	close(release)
	msg := chatCutTurn(t, ctx, 30*time.Second)
	kept := chatEval[int](t, ctx, lastAnswerText+`.length`)
	if !strings.Contains(msg, "Stream cut") || !strings.Contains(msg, "the connection broke") || kept < 100 {
		t.Errorf("got %q with %d characters kept; want the partial answer kept and the cut explained", msg, kept)
	}

	// The link holds the answer cut: opened again, the chat shows it so, with Send again.
	link := chatEval[string](t, ctx, `location.href`)
	if !strings.Contains(link, "%22cut%22%3Atrue") {
		t.Errorf("the link %.300q; want the answer marked cut", link)
	}
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	openPage(t, ctx, link)
	if msg := chatCutTurn(t, ctx, 20*time.Second); !strings.Contains(msg, "cut short when the link was made") {
		t.Errorf("the chat opened from the link says %q; want the answer said cut", msg)
	}
	if notice := chatEval[string](t, ctx, `(document.getElementById("notice") || {}).textContent || ""`); notice != "" {
		t.Errorf("the page says %q about the chat's link; want nothing", notice)
	}

	// With the message field empty, the preview shows what Send again sends.
	if err := chromedp.Do(within(t, ctx, 10*time.Second),
		chromedp.Click(chromedp.CSS("#chat-request > summary")),
		chromedp.WaitVisible(chromedp.ID("chat-request-note")),
	); err != nil {
		t.Fatalf("opening the request preview: %v", err)
	}
	preview := chatEval[string](t, ctx, `document.querySelector("#chat-request .body-preview").textContent`)

	chatPressSendAgain(t, ctx)
	chatWaitDone(t, ctx, 60*time.Second)
	chatCheckOneExchange(t, ctx, question)
	mu.Lock()
	defer mu.Unlock()
	if len(sent) != 2 || sent[1] != sent[0] {
		t.Errorf("requests sent: got %q; want the cut one, then the same again", sent)
	} else if preview != sent[1] {
		t.Errorf("the preview showed %s; Send again sent %s", preview, sent[1])
	}
	if hash := chatEval[string](t, ctx, `decodeURIComponent(location.hash)`); strings.Contains(hash, `"cut"`) || !strings.Contains(hash, question) {
		t.Errorf("the link %.300q; want the question and the finished answer, nothing cut", hash)
	}
}
