package e2e

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestSendAnywaySendsWhatTheFormShows: a value the schema forbids (entities.search's limit is
// 1 to 500) is flagged at its field when Send is pressed and nothing goes out; Send anyway is
// then offered, sends exactly the request the preview shows, the bad value included, once, and
// the API's own error is shown, not one of Loupe's.
func TestSendAnywaySendsWhatTheFormShows(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/entities/entities.search")
	spyFetch(t, ctx)
	setInput(t, ctx, "query:query", "paris")
	setInput(t, ctx, "query:limit", "501")
	if present, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.getElementById("send-anyway")`)); present {
		t.Error("Send anyway is offered before Send was pressed; want it only once the checks have spoken")
	}

	// Send: the field says what is wrong, nothing is sent, Send anyway appears.
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Click(chromedp.ID("send"))); err != nil {
		t.Fatal(err)
	}
	msg, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[string](`(() => {
		const f = document.querySelector('#op-form [data-param="query:limit"]');
		const e = f && f.querySelector(".field-error");
		return f && f.classList.contains("invalid") && e && e.textContent && document.getElementById("send-anyway") ? e.textContent : null; })()`,
		chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		t.Fatalf("after Send with limit=501 the field is not flagged or Send anyway is not offered: %v", err)
	}
	if !strings.Contains(msg, "500") {
		t.Errorf("the limit field says %q; want the maximum, 500, named", msg)
	}
	if n := evalString(t, ctx, `String(window.sent.length)`); n != "0" {
		t.Fatalf("Send with a flagged field sent %s requests; want none", n)
	}

	// Send anyway: exactly what the preview shows goes out, once, and the API's 400 is shown.
	preview, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#preview .req-url")))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(within(t, ctx, 10*time.Second), chromedp.Click(chromedp.ID("send-anyway"))); err != nil {
		t.Fatal(err)
	}
	status, err := chromedp.Run(within(t, ctx, 30*time.Second), chromedp.Poll[string](
		`(e => e && e.textContent || null)(document.getElementById("response-status"))`))
	if err != nil {
		t.Fatalf("Send anyway showed no answer: %v", err)
	}
	body, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.TextContent(chromedp.ID("response")))
	if !strings.HasPrefix(status, "400") || !strings.Contains(body, "The limit must be between 1 and 500") || strings.Contains(body, "loupe proxy") {
		t.Errorf("Send anyway: got %q, panel %.300s; want the API's own 400 naming the limit", status, body)
	}
	sent := evalString(t, ctx, `window.sent.map(r => r.url).join("\n")`)
	want, _ := url.Parse(preview)
	got, _ := url.Parse(sent)
	if strings.Contains(sent, "\n") || got == nil || got.RequestURI() != want.RequestURI() {
		t.Errorf("Send anyway sent\n%s\nwant one request, the preview's %s", sent, want.RequestURI())
	}
	if q := got.Query(); q.Get("limit") != "501" || q.Get("query") != "paris" {
		t.Errorf("Send anyway sent limit=%q query=%q; want 501 and paris as the form shows", q.Get("limit"), q.Get("query"))
	}
}
