package cluster

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	sandboxstate "loupe/server/sandbox/state"
)

// fault sends a sandbox-only call as the administrator and wants 200. It
// never waits, so it is served at once, while other calls wait.
func fault(t *testing.T, h http.Handler, method, path, body string) {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, newRequest(method, SandboxPrefix+path, apiKey, body))
	if w.Code != http.StatusOK {
		t.Fatalf("%s %s: status: got %d; want 200 (%s)", method, path, w.Code, w.Body)
	}
}

// Faults the wait tests combine.
var (
	stop3  = func(t *testing.T, h http.Handler) { fault(t, h, http.MethodPost, "nodes/node-3/_stop", "") }
	start3 = func(t *testing.T, h http.Handler) { fault(t, h, http.MethodPost, "nodes/node-3/_start", "") }
	stop1  = func(t *testing.T, h http.Handler) { fault(t, h, http.MethodPost, "nodes/node-1/_stop", "") }
	start1 = func(t *testing.T, h http.Handler) { fault(t, h, http.MethodPost, "nodes/node-1/_start", "") }
	slow   = func(t *testing.T, h http.Handler) { fault(t, h, http.MethodPut, "allocation", `{"slowdown":100}`) }
	settle = func(d time.Duration) func(*testing.T, http.Handler) {
		return func(t *testing.T, h http.Handler) { clockOf(h).Advance(d) }
	}
	create = func(name, body string) func(*testing.T, http.Handler) {
		return func(t *testing.T, h http.Handler) { fault(t, h, http.MethodPut, "indices/"+name, body) }
	}
	soloRed = []func(*testing.T, http.Handler){create("solo", `{"shards":1,"replicas":0}`), settle(time.Minute), stop1}
)

// TestWaits checks each wait kind: satisfied at once, satisfied after a
// simulated change (faults injected while the call waits, or the cluster's
// own progress), and timing out after its timeout, all in simulated time.
func TestWaits(t *testing.T) {
	type step = func(*testing.T, http.Handler)
	const ok, late = http.StatusOK, http.StatusRequestTimeout
	tests := []struct {
		name     string
		setup    []step // before the call
		query    string
		during   []step // once the call waits
		status   int
		min, max time.Duration // simulated time the call takes
	}{
		{"status green at once", nil, "wait_for_status=green", nil, ok, 0, 0},
		{"status green after the node returns", []step{stop3}, "wait_for_status=green", []step{start3}, ok, 3 * time.Second, 10 * time.Second},
		{"status green after the delay, on two nodes", []step{stop3}, "wait_for_status=green&timeout=2m", nil, ok, time.Minute, time.Minute + 10*time.Second},
		{"status green times out", []step{stop3}, "wait_for_status=green&timeout=5s", nil, late, 5 * time.Second, 5 * time.Second},
		{"status green default timeout", []step{stop3}, "wait_for_status=green&wait_for_nodes=3", nil, late, DefaultTimeout, DefaultTimeout},
		{"status yellow at once", []step{stop3}, "wait_for_status=yellow", nil, ok, 0, 0},
		{"status yellow after red", soloRed, "wait_for_status=yellow", []step{start1}, ok, time.Second, 5 * time.Second},
		{"status yellow times out", soloRed, "wait_for_status=yellow&timeout=10s", nil, late, 10 * time.Second, 10 * time.Second},
		{"status red at once", soloRed, "wait_for_status=red", nil, ok, 0, 0},
		{"nodes 3 at once", nil, "wait_for_nodes=3", nil, ok, 0, 0},
		{"nodes 3 after start", []step{stop3}, "wait_for_nodes=3", []step{start3}, ok, 0, 0},
		{"nodes >=3 after start", []step{stop3}, "wait_for_nodes=>=3", []step{start3}, ok, 0, 0},
		{"nodes ge(3) after start", []step{stop3}, "wait_for_nodes=ge(3)", []step{start3}, ok, 0, 0},
		{"nodes <3 after stop", nil, "wait_for_nodes=<3", []step{stop3}, ok, 0, 0},
		{"nodes lt(3) after stop", nil, "wait_for_nodes=lt(3)", []step{stop3}, ok, 0, 0},
		{"nodes le(2) after stop", nil, "wait_for_nodes=le(2)", []step{stop3}, ok, 0, 0},
		{"nodes gt(2) at once", nil, "wait_for_nodes=gt(2)", nil, ok, 0, 0},
		{"nodes >3 times out", nil, "wait_for_nodes=>3&timeout=2s", nil, late, 2 * time.Second, 2 * time.Second},
		{"nodes 4 times out", nil, "wait_for_nodes=4&timeout=1m", nil, late, time.Minute, time.Minute},
		{"active all at once", nil, "wait_for_active_shards=all", nil, ok, 0, 0},
		{"active all after the node returns", []step{stop3}, "wait_for_active_shards=all", []step{start3}, ok, 3 * time.Second, 10 * time.Second},
		{"active -1 times out", []step{stop3}, "wait_for_active_shards=-1&timeout=3s", nil, late, 3 * time.Second, 3 * time.Second},
		{"active 24 after the node returns", []step{stop3}, "wait_for_active_shards=24", []step{start3}, ok, 3 * time.Second, 10 * time.Second},
		{"active 16 at once", []step{stop3}, "wait_for_active_shards=16", nil, ok, 0, 0},
		{"active 25 times out", nil, "wait_for_active_shards=25&timeout=4s", nil, late, 4 * time.Second, 4 * time.Second},
		{"active 0 does not wait", []step{stop3}, "wait_for_active_shards=0", nil, ok, 0, 0},
		{"no relocating at once", nil, "wait_for_no_relocating_shards=true", nil, ok, 0, 0},
		{"no relocating once rebalanced", []step{stop3, settle(2 * time.Minute), start3}, "wait_for_no_relocating_shards=true", nil, ok, 3 * time.Second, 10 * time.Second},
		{"no relocating times out", []step{stop3, settle(2 * time.Minute), start3}, "wait_for_no_relocating_shards&timeout=1s", nil, late, time.Second, time.Second},
		{"no initializing at once", nil, "wait_for_no_initializing_shards=true", nil, ok, 0, 0},
		{"no initializing once started", []step{create("fresh", `{"shards":2,"replicas":1}`), settle(time.Second)}, "wait_for_no_initializing_shards=true", nil, ok, 500 * time.Millisecond, 5 * time.Second},
		{"no initializing times out", []step{create("fresh", `{"shards":2,"replicas":1}`), settle(time.Second)}, "wait_for_no_initializing_shards&timeout=500ms", nil, late, 500 * time.Millisecond, 500 * time.Millisecond},
		{"events languid at once", nil, "wait_for_events=languid", nil, ok, 0, 0},
		{"events languid once the queue empties", []step{stop3}, "wait_for_events=languid", nil, ok, 100 * time.Millisecond, time.Second},
		{"events urgent times out", []step{slow, stop3}, "wait_for_events=urgent&timeout=5s", nil, late, 5 * time.Second, 5 * time.Second},
		{"events urgent after the urgent task", []step{slow, stop3}, "wait_for_events=IMMEDIATE", nil, ok, 10 * time.Second, 10 * time.Second},
		{"missing index until created", nil, "wait_for_status=green&index=later", []step{create("later", `{"shards":1,"replicas":1}`)}, ok, 3 * time.Second, 5 * time.Second},
		{"missing index times out", nil, "wait_for_status=red&index=later&timeout=3s", nil, late, 3 * time.Second, 3 * time.Second},
		{"timeout 0 answers at once", []step{stop3}, "wait_for_status=green&timeout=0", nil, late, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newTest(Options{})
			for _, s := range tt.setup {
				s(t, h)
			}
			target := "/_cluster/health?" + tt.query
			if name, q, ok := cutIndex(tt.query); ok {
				target = "/_cluster/health/" + name + "?" + q
			}
			c := startCall(h, http.MethodGet, target, apiKey, "")
			if len(tt.during) > 0 {
				if !c.blocked(t) {
					t.Fatalf("answered %d without waiting: %s", c.w.Code, c.w.Body)
				}
				n := blockedCount(h)
				for _, s := range tt.during {
					s(t, h)
				}
				c.woken(t, n) // every change wakes the call
			}
			w, took := c.finish(t)
			if w.Code != tt.status {
				t.Errorf("status: got %d; want %d (%s)", w.Code, tt.status, w.Body)
			}
			if got, want := decode(t, w)["timed_out"], tt.status != ok; got != want {
				t.Errorf("timed_out: got %v; want %v", got, want)
			}
			if took < tt.min || took > tt.max {
				t.Errorf("took %v of simulated time; want between %v and %v", took, tt.min, tt.max)
			}
			if n := Waiters(h); n != 0 {
				t.Errorf("waiters after the answer: got %d; want 0", n)
			}
		})
	}
}

// cutIndex takes "index=NAME&" out of a test query.
func cutIndex(q string) (name, rest string, ok bool) {
	for i := 0; i+6 <= len(q); i++ {
		if q[i:i+6] == "index=" && (i == 0 || q[i-1] == '&') {
			end := i + 6
			for end < len(q) && q[end] != '&' {
				end++
			}
			rest = q[:i] + q[min(end+1, len(q)):]
			return q[i+6 : end], rest, true
		}
	}
	return "", q, false
}

// TestWaitClientGone checks that a client hanging up ends its wait, even one
// without a time limit, and leaves nothing behind.
func TestWaitClientGone(t *testing.T) {
	h := newTest(Options{})
	stop3(t, h)
	c := startCall(h, http.MethodGet, "/_cluster/health?wait_for_nodes=4&timeout=-1", apiKey, "")
	if !c.blocked(t) {
		t.Fatalf("answered %d without waiting", c.w.Code)
	}
	clockOf(h).Advance(2 * time.Hour)
	if !c.blocked(t) {
		t.Fatalf("timeout=-1: answered %d after 2h; want it still waiting", c.w.Code)
	}
	c.cancel()
	select {
	case <-c.done:
	case <-time.After(realTimeLimit):
		t.Fatal("the wait did not end when the client went away")
	}
	if c.w.Body.Len() != 0 {
		t.Errorf("body after hang-up: got %q; want nothing", c.w.Body)
	}
	if n := Waiters(h); n != 0 {
		t.Errorf("waiters: got %d; want 0", n)
	}
}

// TestWaitersWakeTogether checks that one change wakes every waiting call.
func TestWaitersWakeTogether(t *testing.T) {
	h := newTest(Options{})
	stop3(t, h)
	var calls []*call
	for range 20 {
		c := startCall(h, http.MethodGet, "/_cluster/health?wait_for_nodes=3", apiKey, "")
		if !c.blocked(t) {
			t.Fatal("answered without waiting")
		}
		calls = append(calls, c)
	}
	for Waiters(h) < len(calls) {
		calls[0].blocked(t)
	}
	start3(t, h)
	for i, c := range calls {
		select {
		case <-c.done:
		case <-time.After(realTimeLimit):
			t.Fatalf("call %d still waits after the node joined", i)
		}
		if c.w.Code != http.StatusOK {
			t.Errorf("call %d: status: got %d; want 200", i, c.w.Code)
		}
	}
}

// TestWaitSeesTheFirstChange checks that a wait a session started before its
// first change (so on the seed, which sessions without changes share) reads
// the session's own cluster once that change wakes it.
func TestWaitSeesTheFirstChange(t *testing.T) {
	h := newTest(Options{})
	const session = "first-change"
	ctx := sandboxstate.WithSession(context.Background(), session)
	c := startCallIn(ctx, h, http.MethodGet, "/_cluster/health?wait_for_nodes=le(2)&timeout=-1", apiKey, "")
	if !c.blocked(t) {
		t.Fatalf("answered %d without waiting: %s", c.w.Code, c.w.Body)
	}
	mustAs(t, h, session, http.MethodPost, SandboxPrefix+"nodes/node-3/_stop", "")
	select {
	case <-c.done:
	case <-time.After(realTimeLimit):
		c.cancel()
		t.Fatal("the wait did not see the session's first change")
	}
	if c.w.Code != http.StatusOK {
		t.Errorf("status: got %d; want 200 (%s)", c.w.Code, c.w.Body)
	}
	if got, want := decode(t, c.w)["number_of_nodes"], 2.0; got != want {
		t.Errorf("number_of_nodes: got %v; want %v", got, want)
	}
}
