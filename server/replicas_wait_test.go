package server

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"loupe/server/testenv/pgtest"
)

// TestReplicasWakeClusterWaits: two replicas on one database. A cluster-health call waiting
// for green on one replica returns 200 once the node its user stopped is started again on the
// other: the wait reads the shared state again, so the user never notices which replica holds
// their call. Without that, it times out (408) though the cluster is green.
func TestReplicasWakeClusterWaits(t *testing.T) {
	rs := replicas(t, pgtest.DB(t), "", 2)
	a, b := rs[0], rs[1]
	br := browser(t) // one cookie, one sandbox session, on both replicas
	if code, body := scriptCall(t, br, "POST", b+"/proxy/cluster/_sandbox/nodes/node-3/_stop", "", nil); code != 200 {
		t.Fatalf("B stops node-3: got %d %s", code, body)
	}
	if code, body := scriptCall(t, br, "GET", a+"/proxy/cluster/_cluster/health", "", nil); code != 200 || !strings.Contains(body, `"status":"yellow"`) {
		t.Fatalf("A reads the health: got %d %s; want yellow", code, body)
	}
	type answer struct {
		code int
		body string
		took time.Duration
	}
	done := make(chan answer, 1)
	start := time.Now()
	go func() {
		code, body := scriptCall(t, br, "GET", a+"/proxy/cluster/_cluster/health?wait_for_status=green&timeout=30s", "", nil)
		done <- answer{code, body, time.Since(start)}
	}()
	time.Sleep(300 * time.Millisecond) // the call is waiting on A (yellow); it is not a change
	if code, body := scriptCall(t, br, "POST", b+"/proxy/cluster/_sandbox/nodes/node-3/_start", "", nil); code != 200 {
		t.Fatalf("B starts node-3: got %d %s", code, body)
	}
	got := <-done
	if got.code != http.StatusOK || !strings.Contains(got.body, `"status":"green"`) || !strings.Contains(got.body, `"timed_out":false`) {
		t.Fatalf("A's wait for green after B started node-3: got %d %s after %v; want 200 green", got.code, got.body, got.took)
	}
	t.Logf("A's wait returned green %v after it started", got.took.Round(time.Millisecond))
}
