package e2e

import (
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"loupe/server/sandbox"
)

// clusterFault sends a sandbox-only call straight to the cluster sandbox, as the
// administrator.
func clusterFault(t *testing.T, base, method, path string) {
	t.Helper()
	req, _ := http.NewRequest(method, base+"/sandbox/cluster/_sandbox/"+path, nil)
	req.Header.Set("Authorization", "ApiKey "+sandbox.DefaultKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: status %d", method, path, resp.StatusCode)
	}
}

// Scripts reading the cluster picture.
const (
	pictureHealth = `((document.getElementById("picture-health") || {}).textContent || "")`
	// every copy of every shard is drawn green and started, and there is at least one
	allGreen = `(() => { const c = Array.from(document.querySelectorAll("#cluster-picture .shard-copy"));
		return c.length === 24 && c.every(e => e.classList.contains("health-green") && e.classList.contains("state-STARTED")) || null })()`
)

// TestClusterWaitForGreenFromThePicture starts a wait_for_status=green call while the
// cluster is yellow (node-3 stopped), starts node-3 from the picture's controls, and sees
// the call return 200 once the replicas have recovered, with every cell green.
func TestClusterWaitForGreenFromThePicture(t *testing.T) {
	base := startServer(t)
	clusterFault(t, base, http.MethodPost, "nodes/node-3/_stop")
	ctx := newBrowser(t)
	openPage(t, ctx, base+"/cluster/cluster.health#v1&wait_for_status=green&timeout=60s")
	tctx := within(t, ctx, 90*time.Second)
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](pictureHealth+` === "yellow" || null`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the picture does not show the yellow cluster: %v", err)
	}
	if n, _ := chromedp.Run(tctx, chromedp.Evaluate[int](`document.querySelectorAll("#cluster-picture .shard-copy.state-UNASSIGNED").length`)); n != 8 {
		t.Errorf("unassigned cells: got %d; want node-3's 8 replicas", n)
	}
	// Start the wait: it stays pending while the cluster is yellow.
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("send"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`!!document.querySelector("#cluster-picture .picture-live") && document.getElementById("response").getAttribute("aria-busy") === "true" || null`,
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the wait is not pending, or the picture does not say it watches: %v", err)
	}
	// Start node-3 from the picture: its replicas come back, the call returns green.
	if err := chromedp.Do(tctx, chromedp.Click(chromedp.ID("node-start-node-3"))); err != nil {
		t.Fatal(err)
	}
	// On the way, the picture shows copies moving (fetched, then initializing).
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`!!document.querySelector("#cluster-picture .shard-copy.state-INITIALIZING") || null`,
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Errorf("the picture never showed an initializing copy: %v", err)
	}
	status, err := chromedp.Run(tctx, chromedp.Poll[string](`(() => { const s = document.getElementById("response-status"); return s && s.textContent || null })()`,
		chromedp.WithPollingTimeout(60*time.Second)))
	if err != nil {
		t.Fatalf("the wait never answered: %v", err)
	}
	if status[:3] != "200" {
		t.Fatalf("the wait answered %q; want 200 (green)", status)
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](allGreen, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		cells, _ := chromedp.Run(tctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#cluster-picture .shard-copy")).map(e => e.className)`))
		t.Fatalf("after the green answer, not every cell is green and started: %v (%v)", cells, err)
	}
	if got, _ := chromedp.Run(tctx, chromedp.Evaluate[string](pictureHealth)); got != "green" {
		t.Errorf("picture status: got %q; want green", got)
	}
}
