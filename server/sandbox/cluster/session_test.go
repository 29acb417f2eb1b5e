package cluster

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sandboxstate "loupe/server/sandbox/state"
	"loupe/server/sandbox/state/boltstore"
)

// as sends method target with body to h as session (the administrator's
// key) and returns the answer.
func as(h http.Handler, session, method, target, body string) *httptest.ResponseRecorder {
	r := newRequest(method, target, apiKey, body)
	r = r.WithContext(sandboxstate.WithSession(r.Context(), session))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// mustAs is as, failing the test unless the answer is 200.
func mustAs(t *testing.T, h http.Handler, session, method, target, body string) string {
	t.Helper()
	w := as(h, session, method, target, body)
	if w.Code != http.StatusOK {
		t.Fatalf("%s %s as %s: got %d %s; want 200", method, target, session, w.Code, w.Body)
	}
	return w.Body.String()
}

// newSessionTest is a handler on a ManualClock over a registry of store.
func newSessionTest(store sandboxstate.Store, limits sandboxstate.Limits, clk *ManualClock) http.Handler {
	reg := sandboxstate.NewRegistry(store, sandboxstate.Options{Limits: limits})
	return New(Options{Clock: clk, Registry: reg})
}

// TestSessionsAreIsolated: one user's faults and upgrade are theirs alone;
// another user still reads the seeded cluster, without a copy of it; a
// reset gives the first user the seed back.
func TestSessionsAreIsolated(t *testing.T) {
	h := newSessionTest(sandboxstate.NewMemory(), sandboxstate.Limits{}, NewManualClock(epoch))
	mustAs(t, h, "alice", http.MethodPost, SandboxPrefix+"nodes/node-3/_stop", "")
	mustAs(t, h, "alice", http.MethodPut, SandboxPrefix+"indices/alices", `{"shards":1,"replicas":0}`)
	mustAs(t, h, "alice", http.MethodPost, UpgradePerformPath, "")

	if got := mustAs(t, h, "alice", http.MethodGet, UpgradeCheckPath, ""); !strings.Contains(got, `"upgradeAvailable":false`) {
		t.Errorf("alice's check after her upgrade: got %s; want nothing to upgrade", got)
	}
	if got := mustAs(t, h, "bob", http.MethodGet, UpgradeCheckPath, ""); !strings.Contains(got, `"upgradeAvailable":true`) {
		t.Errorf("bob's check: got %s; want the upgrade still available", got)
	}
	if got := mustAs(t, h, "bob", http.MethodGet, HealthPath, ""); !strings.Contains(got, `"status":"green"`) || !strings.Contains(got, `"number_of_nodes":3`) {
		t.Errorf("bob's health: got %s; want the seeded green cluster of 3 nodes", got)
	}
	if w := as(h, "bob", http.MethodGet, HealthPath+"/alices?timeout=0s", ""); w.Code != http.StatusRequestTimeout {
		t.Errorf("bob's health of alice's index: got %d %s; want it missing for him", w.Code, w.Body)
	}
	if got := mustAs(t, h, "alice", http.MethodGet, HealthPath, ""); !strings.Contains(got, `"number_of_nodes":2`) {
		t.Errorf("alice's health: got %s; want her stopped node gone", got)
	}
	hh := h.(*handler)
	bob, err := hh.users.Get(sandboxstate.WithSession(context.Background(), "bob"))
	if err != nil {
		t.Fatal(err)
	}
	if bob.sim != nil {
		t.Errorf("bob only read, yet holds a cluster of his own; want him reading the shared seed")
	}

	mustAs(t, h, "alice", http.MethodPost, SandboxPrefix+"_reset", "")
	if got := mustAs(t, h, "alice", http.MethodGet, UpgradeCheckPath, ""); !strings.Contains(got, `"upgradeAvailable":true`) {
		t.Errorf("alice's check after reset: got %s; want the upgrade available again", got)
	}
	if got := mustAs(t, h, "alice", http.MethodGet, HealthPath, ""); !strings.Contains(got, `"number_of_nodes":3`) {
		t.Errorf("alice's health after reset: got %s; want the seeded 3 nodes", got)
	}
}

// TestSessionSurvivesARestart: with a durable store, a user's cluster and
// upgrade come back in a new handler over the same directory, having moved
// on in the meantime as the live one would have; another user's data stays
// out of it, and the store never holds the seed.
func TestSessionSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	clk := NewManualClock(epoch)
	store, err := boltstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := newSessionTest(store, sandboxstate.Limits{}, clk)
	mustAs(t, h, "alice", http.MethodPost, SandboxPrefix+"nodes/node-2/_stop", "")
	mustAs(t, h, "alice", http.MethodPost, UpgradePerformPath, `{"config":["roles"]}`)
	mustAs(t, h, "bob", http.MethodGet, HealthPath, "")
	if got := mustAs(t, h, "alice", http.MethodGet, HealthPath, ""); !strings.Contains(got, `"delayed_unassigned_shards":8`) {
		t.Fatalf("alice after the stop: got %s; want 8 delayed replicas", got)
	}
	if entries, _ := store.Load("bob", "cluster"); len(entries) != 0 {
		t.Errorf("bob only read, yet the store holds %d records of his", len(entries))
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}

	clk.Advance(2 * time.Minute) // the delay is over while Loupe is down: the replicas are reallocated
	store, err = boltstore.Open(dir)
	if err != nil {
		t.Fatalf("reopening the store: %v", err)
	}
	defer store.Close()
	h = newSessionTest(store, sandboxstate.Limits{}, clk)
	got := mustAs(t, h, "alice", http.MethodGet, HealthPath, "")
	for _, want := range []string{`"status":"green"`, `"number_of_nodes":2`, `"delayed_unassigned_shards":0`} {
		if !strings.Contains(got, want) {
			t.Errorf("alice after the restart: got %s; want %s", got, want)
		}
	}
	if got := mustAs(t, h, "alice", http.MethodGet, UpgradeCheckPath, ""); !strings.Contains(got, `"rolesmapping":["update_required"]`) {
		t.Errorf("alice's check after the restart: got %s; want roles done, rolesmapping pending", got)
	}
	if got := mustAs(t, h, "bob", http.MethodGet, HealthPath, ""); !strings.Contains(got, `"number_of_nodes":3`) {
		t.Errorf("bob after the restart: got %s; want the seed", got)
	}
}

// TestSessionFullIsRefusedAndLeavesTheCluster: a change past the session's
// bytes is refused in the cluster's error shape, and the cluster stays as it
// was (what a client was told is what the store holds).
func TestSessionFullIsRefusedAndLeavesTheCluster(t *testing.T) {
	h := newSessionTest(sandboxstate.NewMemory(), sandboxstate.Limits{MaxBytes: 8 << 10}, NewManualClock(epoch))
	mustAs(t, h, "alice", http.MethodPut, SandboxPrefix+"indices/small", `{"shards":1,"replicas":0}`)
	w := as(h, "alice", http.MethodPut, SandboxPrefix+"indices/huge", `{"shards":64,"replicas":8}`)
	if w.Code != http.StatusInsufficientStorage || !strings.Contains(w.Body.String(), `"type":"sandbox_session_full_exception"`) ||
		!strings.Contains(w.Body.String(), "Reset") {
		t.Fatalf("a change past the limit: got %d %s; want 507 sandbox_session_full_exception saying to reset", w.Code, w.Body)
	}
	got := mustAs(t, h, "alice", http.MethodGet, SandboxPrefix+"state", "")
	if strings.Contains(got, `"huge"`) || !strings.Contains(got, `"small"`) {
		t.Errorf("after the refused change: got %s; want small and not huge", got)
	}
}

// TestWaitOnTheSeedSeesTheFirstChange: a wait a user started while reading
// the seed answers once their own first change meets it.
func TestWaitOnTheSeedSeesTheFirstChange(t *testing.T) {
	h := newSessionTest(sandboxstate.NewMemory(), sandboxstate.Limits{}, NewManualClock(epoch))
	c := startCall(h, http.MethodGet, HealthPath+"?wait_for_nodes=2&timeout=1m", apiKey, "")
	if !c.blocked(t) {
		t.Fatalf("the wait answered at once: %d %s", c.w.Code, c.w.Body)
	}
	if w := as(h, sandboxstate.Local, http.MethodPost, SandboxPrefix+"nodes/node-1/_stop", ""); w.Code != http.StatusOK {
		t.Fatalf("stop: %d %s", w.Code, w.Body)
	}
	w, took := c.finish(t)
	if w.Code != http.StatusOK || took >= time.Minute {
		t.Errorf("the wait: got %d after %v (%s); want 200 before its timeout", w.Code, took, w.Body)
	}
}
