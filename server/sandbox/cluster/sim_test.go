package cluster

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// state reads GET /_sandbox/state as the administrator.
func state(t *testing.T, h http.Handler) stateBody {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, newRequest(http.MethodGet, SandboxPrefix+"state", apiKey, ""))
	if w.Code != http.StatusOK {
		t.Fatalf("state: status %d (%s)", w.Code, w.Body)
	}
	var s stateBody
	if err := json.Unmarshal(w.Body.Bytes(), &s); err != nil {
		t.Fatalf("decoding the state %s: %v", w.Body, err)
	}
	return s
}

// perNode counts the copies on each node (relocating ones at their source).
func perNode(s stateBody) map[string]int {
	out := map[string]int{}
	for _, ix := range s.Indices {
		for _, sh := range ix.Shards {
			for _, c := range sh.Copies {
				if c.State != "UNASSIGNED" {
					out[c.Node]++
				}
			}
		}
	}
	return out
}

// expect checks health counters: status, nodes, unassigned, delayed,
// relocating, initializing and in-flight fetches.
func expect(t *testing.T, when string, h *healthBody, status string, nodes, unassigned, delayed, relocating, initializing, fetches int) {
	t.Helper()
	got := []any{h.Status, h.NumberOfNodes, h.UnassignedShards, h.DelayedUnassignedShards, h.RelocatingShards, h.InitializingShards, h.NumberOfInFlightFetch}
	want := []any{status, nodes, unassigned, delayed, relocating, initializing, fetches}
	for i, name := range []string{"status", "nodes", "unassigned", "delayed", "relocating", "initializing", "in-flight fetches"} {
		if got[i] != want[i] {
			t.Errorf("%s: %s: got %v; want %v", when, name, got[i], want[i])
		}
	}
}

// TestNodeLeavesAndReturns follows a node leaving and coming back after its
// replicas' delay: yellow with delayed replicas, then fetches and recoveries
// on the two others, green, then relocations back to the returning node.
func TestNodeLeavesAndReturns(t *testing.T) {
	h := newTest(Options{})
	clk := clockOf(h)
	stop3(t, h)
	s := state(t, h)
	expect(t, "node left", s.Health, "yellow", 2, 8, 8, 0, 0, 0)
	if s.Health.ActivePrimaryShards != 12 {
		t.Errorf("node left: active primaries: got %d; want 12 (replicas promoted)", s.Health.ActivePrimaryShards)
	}
	if s.Health.NumberOfPendingTasks == 0 {
		t.Errorf("node left: no pending task; want node-left pending")
	}
	if got := perNode(s)["node-3"]; got != 0 {
		t.Errorf("node left: copies on node-3: got %d; want 0", got)
	}
	clk.Advance(59 * time.Second)
	expect(t, "59s later", state(t, h).Health, "yellow", 2, 8, 8, 0, 0, 0)
	clk.Advance(time.Second) // the delay is over: two fetches per node
	expect(t, "delay over", state(t, h).Health, "yellow", 2, 8, 0, 0, 0, 4)
	clk.Advance(300 * time.Millisecond)
	expect(t, "fetched", state(t, h).Health, "yellow", 2, 4, 0, 0, 4, 0)
	clk.Advance(time.Minute)
	s = state(t, h)
	expect(t, "reallocated", s.Health, "green", 2, 0, 0, 0, 0, 0)
	if got := perNode(s); got["node-1"] != 12 || got["node-2"] != 12 {
		t.Errorf("reallocated: copies per node: got %v; want 12 and 12", got)
	}
	start3(t, h)
	expect(t, "node returned", state(t, h).Health, "green", 3, 0, 0, 2, 0, 0)
	clk.Advance(time.Minute)
	s = state(t, h)
	expect(t, "rebalanced", s.Health, "green", 3, 0, 0, 0, 0, 0)
	if got := perNode(s); got["node-1"] != 8 || got["node-2"] != 8 || got["node-3"] != 8 {
		t.Errorf("rebalanced: copies per node: got %v; want 8 each", got)
	}
}

// TestNodeReturnsWithinDelay checks that delayed replicas go back to their
// node, without relocations.
func TestNodeReturnsWithinDelay(t *testing.T) {
	h := newTest(Options{})
	stop3(t, h)
	clockOf(h).Advance(10 * time.Second)
	start3(t, h)
	expect(t, "node back", state(t, h).Health, "yellow", 3, 8, 6, 0, 0, 2)
	clockOf(h).Advance(time.Minute)
	s := state(t, h)
	expect(t, "recovered", s.Health, "green", 3, 0, 0, 0, 0, 0)
	if got := perNode(s); got["node-3"] != 8 {
		t.Errorf("copies on node-3: got %v; want 8", got)
	}
}

// TestLostPrimary checks an index without replicas: red while its node is
// away (its data is only there), green once it returns.
func TestLostPrimary(t *testing.T) {
	h := newTest(Options{})
	fault(t, h, http.MethodPut, "indices/solo", `{"shards":1,"replicas":0}`)
	b := health(t, h, "/_cluster/health/solo", http.StatusOK)
	if b.Status != "red" || b.UnassignedShards != 1 || b.NumberOfInFlightFetch != 1 {
		t.Errorf("created: got %s unassigned %d fetches %d; want red 1 1", b.Status, b.UnassignedShards, b.NumberOfInFlightFetch)
	}
	clockOf(h).Advance(300 * time.Millisecond)
	if b := health(t, h, "/_cluster/health/solo", http.StatusOK); b.Status != "red" || b.InitializingShards != 1 {
		t.Errorf("fetched: got %s initializing %d; want red 1", b.Status, b.InitializingShards)
	}
	clockOf(h).Advance(2 * time.Second)
	if b := health(t, h, "/_cluster/health/solo", http.StatusOK); b.Status != "green" {
		t.Errorf("started: got %s; want green", b.Status)
	}
	holder := ""
	for _, ix := range state(t, h).Indices {
		if ix.Name == "solo" {
			holder = ix.Shards[0].Copies[0].Node
		}
	}
	fault(t, h, http.MethodPost, "nodes/"+holder+"/_stop", "")
	clockOf(h).Advance(5 * time.Minute)
	if b := health(t, h, "/_cluster/health?level=indices", http.StatusOK); b.Status != "red" {
		t.Errorf("holder %s away 5m: got %s; want red", holder, b.Status)
	}
	fault(t, h, http.MethodPost, "nodes/"+holder+"/_start", "")
	clockOf(h).Advance(time.Minute)
	if b := health(t, h, "/_cluster/health", http.StatusOK); b.Status != "green" {
		t.Errorf("holder back: got %s; want green", b.Status)
	}
}

// TestCloseOpenDelete checks that closing and opening recover an index's
// copies again and deleting removes it.
func TestCloseOpenDelete(t *testing.T) {
	h := newTest(Options{})
	for _, tt := range []struct{ path, method string }{{"indices/orders/_close", http.MethodPost}, {"indices/orders/_open", http.MethodPost}} {
		fault(t, h, tt.method, tt.path, "")
		b := health(t, h, "/_cluster/health/orders", http.StatusOK)
		if b.Status != "red" || b.InitializingShards != 6 {
			t.Errorf("%s: got %s initializing %d; want red 6", tt.path, b.Status, b.InitializingShards)
		}
		clockOf(h).Advance(2 * time.Second)
		if b := health(t, h, "/_cluster/health/orders", http.StatusOK); b.Status != "green" {
			t.Errorf("%s, later: got %s; want green", tt.path, b.Status)
		}
	}
	fault(t, h, http.MethodPost, "indices/orders/_close", "")
	clockOf(h).Advance(2 * time.Second)
	b := health(t, h, "/_cluster/health/orders*?level=indices&expand_wildcards=closed", http.StatusOK)
	if got := indexNames(b); len(got) != 1 {
		t.Errorf("closed orders with expand_wildcards=closed: got %v; want [orders]", got)
	}
	fault(t, h, http.MethodDelete, "indices/orders", "")
	if b := health(t, h, "/_cluster/health", http.StatusOK); b.ActivePrimaryShards != 9 || b.ActiveShards != 18 {
		t.Errorf("deleted: got %d primaries %d shards; want 9 18", b.ActivePrimaryShards, b.ActiveShards)
	}
}

// TestSlowdown checks that the slowdown stretches recoveries.
func TestSlowdown(t *testing.T) {
	h := newTest(Options{})
	fault(t, h, http.MethodPut, "allocation", `{"slowdown":10,"delayed_timeout":"0"}`)
	if s := state(t, h); s.Allocation.Slowdown != 10 || s.Allocation.DelayedTimeout != "0s" {
		t.Errorf("allocation: got %+v; want slowdown 10, delayed_timeout 0s", s.Allocation)
	}
	stop3(t, h) // no delay: fetches start at once
	clockOf(h).Advance(10 * time.Second)
	if b := state(t, h).Health; b.Status != "yellow" {
		t.Errorf("10s at slowdown 10: got %s; want yellow still", b.Status)
	}
	clockOf(h).Advance(2 * time.Minute)
	if b := state(t, h).Health; b.Status != "green" {
		t.Errorf("2m later: got %s; want green", b.Status)
	}
}

// TestSandboxCalls checks the sandbox-only calls' errors, rights and reset.
func TestSandboxCalls(t *testing.T) {
	h := newTest(Options{GuestKey: "guest-key"})
	reader := "ApiKey " + DefaultReaderKey
	tests := []struct {
		method, path, auth, body string
		status                   int
		want                     string // in the body
	}{
		{http.MethodGet, "state", reader, "", 200, `"nodes":[{"name":"node-1","zone":"zone-1","up":true}`},
		{http.MethodHead, "state", apiKey, "", 200, ""},
		{http.MethodGet, "state", "ApiKey guest-key", "", 403, "no permissions for [sandbox:state/read] and User [name=guest"},
		{http.MethodGet, "state", "", "", 401, "Unauthorized"},
		{http.MethodPost, "nodes/node-3/_stop", reader, "", 403, "no permissions for [sandbox:faults/inject] and User [name=reader"},
		{http.MethodPost, "nodes/node-9/_stop", apiKey, "", 404, "node [node-9] not found; the nodes are node-1, node-2, node-3"},
		{http.MethodGet, "nodes/node-3/_stop", apiKey, "", 405, "allowed: [POST]"},
		{http.MethodPost, "nodes/node-3/_reboot", apiKey, "", 400, "no handler found"},
		{http.MethodPut, "indices/Logs", apiKey, "", 400, "Invalid index name [Logs], must be lowercase"},
		{http.MethodPut, "indices/_x", apiKey, "", 400, "must not start with"},
		{http.MethodPut, "indices/a*b", apiKey, "", 400, "must not contain"},
		{http.MethodPut, "indices/products", apiKey, "", 400, "resource_already_exists_exception"},
		{http.MethodPut, "indices/catalog", apiKey, "", 400, "index [catalog] already exists"},
		{http.MethodPut, "indices/big", apiKey, `{"shards":65}`, 400, "index.number_of_shards] must be >= 1 and <= 64"},
		{http.MethodPut, "indices/big", apiKey, `{"replicas":-1}`, 400, "index.number_of_replicas"},
		{http.MethodPut, "indices/big", apiKey, `{"shard":2}`, 400, `unknown field [shard]`},
		{http.MethodPut, "indices/big", apiKey, `[1]`, 400, "parse_exception"},
		{http.MethodPut, "indices/big", apiKey, `{"shards":2,"replicas":2}`, 200, `{"acknowledged":true}`},
		{http.MethodDelete, "indices/nothing", apiKey, "", 404, "no such index [nothing]"},
		{http.MethodPost, "indices/nothing/_close", apiKey, "", 404, "index_not_found_exception"},
		{http.MethodPut, "allocation", apiKey, `{"slowdown":101}`, 400, "slowdown must be between 1 (normal speed) and 100"},
		{http.MethodPut, "allocation", apiKey, `{"delayed_timeout":"soon"}`, 400, "failed to parse setting [delayed_timeout]"},
		{http.MethodPost, "state", apiKey, "", 405, "allowed: [GET]"},
		{http.MethodGet, "state?verbose=1", apiKey, "", 400, "contains unrecognized parameter: [verbose]"},
		{http.MethodPost, "nodes/node-1/_stop", apiKey, "", 200, `{"acknowledged":true}`},
		{http.MethodPost, "nodes/node-1/_stop", apiKey, "", 200, `{"acknowledged":true}`},
		{http.MethodGet, "state", apiKey, "", 200, `{"name":"node-1","zone":"zone-1","up":false}`},
		{http.MethodPost, "nodes/node-2/_stop", apiKey, "", 200, ""},
		{http.MethodPost, "nodes/node-3/_stop", apiKey, "", 400, "node [node-3] is the last running node"},
	}
	for _, tt := range tests {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, newRequest(tt.method, SandboxPrefix+tt.path, tt.auth, tt.body))
		if w.Code != tt.status || !strings.Contains(w.Body.String(), tt.want) {
			t.Errorf("%s %s: got %d %s; want %d containing %s", tt.method, tt.path, w.Code, w.Body, tt.status, tt.want)
		}
	}
	// Reset: the cluster and the security configuration as at start.
	do(t, h, http.MethodPost, UpgradePerformPath, apiKey, "")
	fault(t, h, http.MethodPost, "_reset", "")
	s := state(t, h)
	expect(t, "reset", s.Health, "green", 3, 0, 0, 0, 0, 0)
	if len(s.Indices) != len(DefaultIndices()) {
		t.Errorf("reset: got %d indices; want %d", len(s.Indices), len(DefaultIndices()))
	}
	if got := do(t, h, http.MethodGet, UpgradeCheckPath, apiKey, "").Body.String(); got != checkFresh {
		t.Errorf("reset: check: got %s; want %s", got, checkFresh)
	}
}
