package e2e

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// utf8PathCases are path values typed in an operation's form that are not ASCII: each must go
// out percent-encoded as UTF-8 and reach the API, whose own answer is shown (never a refusal
// of Loupe's proxy). Creating the index first makes the health call answer 200 for it.
var utf8PathCases = []struct {
	op, key, value, wantPath, wantStatus string
}{
	{"sandbox.index_create", "path:index", "café", "/_sandbox/indices/caf%C3%A9", "200"},
	{"cluster.health.index", "path:index", "café", "/_cluster/health/caf%C3%A9", "200"},
	{"sandbox.index_create", "path:index", "東京", "/_sandbox/indices/%E6%9D%B1%E4%BA%AC", "200"},
	{"cluster.health.index", "path:index", "東京", "/_cluster/health/%E6%9D%B1%E4%BA%AC", "200"},
}

// sendUTF8Paths types each case's value, checks the preview and sends; it returns nothing and
// fails the test for a case whose answer is not the API's.
func sendUTF8Paths(t *testing.T, ctx context.Context, site string) {
	t.Helper()
	openPage(t, ctx, site+"cluster/"+utf8PathCases[0].op)
	for _, tt := range utf8PathCases {
		// Within the app, not by reloading: the static explorer's sandbox lives in the page,
		// and the index created first must still be there for the health call.
		if _, err := chromedp.Run(within(t, ctx, 30*time.Second), chromedp.Poll[bool](`(() => {
			const want = "cluster/" + `+jsString(tt.op)+`, page = document.querySelector(".op-page");
			if (page && page.dataset.op === want) return true;
			const a = document.querySelector('#side a[data-op="' + want + '"]');
			if (a && !window.clicked) { window.clicked = true; a.click(); setTimeout(() => window.clicked = false, 2000); }
			return null; })()`)); err != nil {
			t.Fatalf("opening %s from the sidebar: %v", tt.op, err)
		}
		setInput(t, ctx, tt.key, tt.value)
		preview, err := chromedp.Run(within(t, ctx, 10*time.Second), chromedp.Poll[string](
			`(e => e && e.textContent.includes(`+jsString(tt.wantPath)+`) ? e.textContent : null)(document.querySelector("#preview .req-url"))`,
			chromedp.WithPollingTimeout(5*time.Second)))
		if err != nil {
			got, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#preview .req-url")))
			t.Errorf("%s %s=%q: the preview shows %s; want the path %s", tt.op, tt.key, tt.value, got, tt.wantPath)
			continue
		}
		status := sendAndWait(t, ctx)
		body, _ := chromedp.Run(within(t, ctx, 5*time.Second), chromedp.TextContent(chromedp.ID("response")))
		if !strings.HasPrefix(status, tt.wantStatus) || strings.Contains(body, "loupe proxy") {
			u, _ := url.Parse(preview)
			t.Errorf("%s %s=%q (%s): got %q, panel %.300s; want %s from the API", tt.op, tt.key, tt.value, u.Path, status, body, tt.wantStatus)
		}
	}
}

// TestAUTF8PathValueReachesTheAPI types café and 東京 as path values on the Loupe server
// (through /proxy/) and in the static explorer (the sandbox module in the page).
func TestAUTF8PathValueReachesTheAPI(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	t.Run("through the proxy", func(t *testing.T) {
		sendUTF8Paths(t, ctx, startServer(t)+"/")
	})
	t.Run("in the static explorer", func(t *testing.T) {
		sendUTF8Paths(t, ctx, serveFiles(t, sharedStatic(t, "/"), "/"))
	})
}
