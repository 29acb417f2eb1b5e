package cluster

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// newTestSim is the default cluster on its own ManualClock at epoch.
func newTestSim() (*simCluster, *ManualClock) {
	clk := NewManualClock(epoch)
	return newSimCluster(clk, Timing{}, DefaultClusterName, DefaultNodes, DefaultIndices()), clk
}

// change applies f to c as a sandbox call does.
func change(t *testing.T, c *simCluster, f func(c *simCluster) *osError) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := f(c); err != nil {
		t.Fatalf("change: %+v", err)
	}
	c.changedLocked()
}

// stateOf is the picture of c.
func stateOf(c *simCluster) stateBody {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state()
}

// marshalOf is c's snapshot.
func marshalOf(t *testing.T, c *simCluster) []byte {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	data, err := c.marshal()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// restoreAt restores data into a fresh cluster whose clock stands at now.
func restoreAt(t *testing.T, data []byte, now time.Time) *simCluster {
	t.Helper()
	c := newSimCluster(NewManualClock(now), Timing{}, DefaultClusterName, DefaultNodes, nil)
	if err := c.restore(data); err != nil {
		t.Fatalf("restore: %v", err)
	}
	return c
}

// TestSnapshotReplaysWhatFellDue saves a cluster in the middle of its
// recovery (a node stopped, a new index fetching, an upgrade performed) and
// restores it at moments after: each restored cluster is what the live one
// shows at that moment, as if it had run all along.
func TestSnapshotReplaysWhatFellDue(t *testing.T) {
	live, clk := newTestSim()
	change(t, live, func(c *simCluster) *osError { return c.stopNode("node-3") })
	change(t, live, func(c *simCluster) *osError { return c.createIndex("fresh", 2, 1) })
	clk.Advance(200 * time.Millisecond)
	change(t, live, func(c *simCluster) *osError { return c.setAllocation(2, 30*time.Second) })
	data := marshalOf(t, live)
	if strings.Contains(string(data), "node-1") {
		t.Errorf("the snapshot names the configured nodes; it should hold only what changed: %s", data)
	}
	saved := clk.Now()
	for _, after := range []time.Duration{0, 250 * time.Millisecond, 3 * time.Second, 31 * time.Second, 10 * time.Minute} {
		clk.Advance(saved.Add(after).Sub(clk.Now()))
		got := stateOf(restoreAt(t, data, clk.Now()))
		if want := stateOf(live); !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Errorf("restored %v after saving:\n got %s\nwant %s", after, g, w)
		}
	}
}

// TestSnapshotRestoredKeepsMoving checks that a restored session's clock
// and timer work: scheduled once live, it settles on its own clock.
func TestSnapshotRestoredKeepsMoving(t *testing.T) {
	live, _ := newTestSim()
	change(t, live, func(c *simCluster) *osError { return c.createIndex("fresh", 1, 1) })
	data := marshalOf(t, live)
	clk := NewManualClock(epoch)
	c := newSimCluster(clk, Timing{}, DefaultClusterName, DefaultNodes, nil)
	if err := c.restore(data); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	c.schedule()
	c.mu.Unlock()
	if got := stateOf(c).Health.Status; got != "red" {
		t.Fatalf("restored at once: status %s; want red (the new index is fetching)", got)
	}
	for clk.Next() {
	}
	if got := stateOf(c).Health.Status; got != "green" {
		t.Errorf("restored, then its timers run out: status %s; want green", got)
	}
}

// TestSnapshotRefusesWhatDoesNotFit: a damaged record or one of another
// cluster size is refused with a reason, never half applied.
func TestSnapshotRefusesWhatDoesNotFit(t *testing.T) {
	live, _ := newTestSim()
	good := marshalOf(t, live)
	tests := []struct {
		name, data, want string
	}{
		{"not JSON", "{", "decoding the saved cluster"},
		{"another format", `{"v":99}`, "format 99"},
		{"another size", strings.Replace(string(good), `"nodes":3`, `"nodes":5`, 1), "has 5 nodes"},
		{"node out of range", strings.Replace(string(good), `"n":0`, `"n":7`, 1), "impossible state"},
		{"slowdown out of range", strings.Replace(string(good), `"slowdown":1`, `"slowdown":0`, 1), "allocation settings"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newSimCluster(NewManualClock(epoch), Timing{}, DefaultClusterName, DefaultNodes, nil)
			err := c.restore([]byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v; want an error containing %q", err, tt.want)
			}
		})
	}
}
