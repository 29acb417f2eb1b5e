package e2e

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"loupe/server"
)

// auditLines collects the proxy's audit lines of a test server.
type auditLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (a *auditLines) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.buf.Write(p)
}

// count is how many audit lines hold every one of parts.
func (a *auditLines) count(parts ...string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for _, line := range strings.Split(a.buf.String(), "\n") {
		all := line != ""
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			n++
		}
	}
	return n
}

// TestClusterHealthWaitTimesOutOnce: a wait for green on a yellow cluster that times out shows
// the API's 408 and its timed_out body in the page, after one call. Chromium re-sends a
// request answered 408 on a reused keep-alive connection (the page has several by the time of
// the Send), so without the proxy carrying the status the page waited forever while the
// sandbox was called again every 3 s.
func TestClusterHealthWaitTimesOutOnce(t *testing.T) {
	t.Parallel()
	audit := &auditLines{}
	base := startServer(t, func(c *server.Config) {
		c.Audit = slog.New(slog.NewTextHandler(audit, nil))
	})
	ctx := newBrowser(t)
	cookie := visitorCookie(t, ctx, base)
	clusterFault(t, base, cookie, http.MethodPost, "nodes/node-3/_stop")
	openPage(t, ctx, base+"/cluster/cluster.health#v1&wait_for_status=green&timeout=3s")
	tctx := within(t, ctx, 60*time.Second)
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](pictureHealth+` === "yellow" || null`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the picture does not show the yellow cluster: %v", err)
	}
	sent := time.Now()
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send"))); err != nil {
		t.Fatal(err)
	}
	status, err := chromedp.Run(tctx, chromedp.Poll[string](`(() => { const s = document.getElementById("response-status"); return s && s.textContent || null })()`,
		chromedp.WithPollingTimeout(15*time.Second)))
	if err != nil {
		t.Fatalf("the wait never answered in the page (%d calls so far): %v", audit.count("operation=cluster.health", "status=408"), err)
	}
	if took := time.Since(sent); !strings.HasPrefix(status, "408") || took < 3*time.Second {
		t.Errorf("the page shows %q after %s; want 408 after the 3s wait", status, took.Round(time.Millisecond))
	}
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.CSS(`[data-tab="raw"]`)), chromedp.WaitVisible(chromedp.ID("response-raw"))); err != nil {
		t.Fatal(err)
	}
	raw, _ := chromedp.Run(tctx, chromedp.TextContent(chromedp.ID("response-raw")))
	if flat := strings.Join(strings.Fields(raw), ""); !strings.Contains(flat, `"timed_out":true`) || !strings.Contains(flat, `"status":"yellow"`) {
		t.Errorf("the body shown: %q; want the health body with timed_out true and status yellow", raw)
	}
	time.Sleep(4 * time.Second) // a re-send would have answered by now
	if n := audit.count("operation=cluster.health", "status=408"); n != 1 {
		t.Errorf("the wait was called %d times; want once", n)
	}
}
