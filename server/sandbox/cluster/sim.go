package cluster

import (
	"fmt"
	"slices"
	"sync"
	"time"
)

// Timing is how long the simulated cluster's work takes. A zero field means
// its default; the allocation slowdown (PUT /_sandbox/allocation) multiplies
// Fetch, Recovery and Task.
type Timing struct {
	// Fetch is how long the cluster manager fetches a shard's store
	// information before allocating an unassigned copy (an in-flight fetch).
	// Default 300ms.
	Fetch time.Duration
	// Recovery is how long a copy initializes (or relocates) before it is
	// started. Default 1.5s.
	Recovery time.Duration
	// Task is how long the cluster manager takes per pending task. Default
	// 100ms.
	Task time.Duration
	// DelayedTimeout is how long a replica whose node left stays unassigned
	// (delayed) before it is allocated elsewhere, OpenSearch's
	// index.unassigned.node_left.delayed_timeout. Default 1m.
	DelayedTimeout time.Duration
	// Recoveries is how many copies one node recovers at once, OpenSearch's
	// cluster.routing.allocation.node_concurrent_recoveries. Default 2.
	Recoveries int
}

// withDefaults fills the zero fields of t.
func (t Timing) withDefaults() Timing {
	t.Fetch = cmpOr(t.Fetch, 300*time.Millisecond)
	t.Recovery = cmpOr(t.Recovery, 1500*time.Millisecond)
	t.Task = cmpOr(t.Task, 100*time.Millisecond)
	t.DelayedTimeout = cmpOr(t.DelayedTimeout, time.Minute)
	if t.Recoveries <= 0 {
		t.Recoveries = 2
	}
	return t
}

// cmpOr is v, or def when v is not positive.
func cmpOr(v, def time.Duration) time.Duration {
	if v <= 0 {
		return def
	}
	return v
}

// copyState is the state of one shard copy, as OpenSearch's ShardRoutingState
// (fetching is an unassigned copy whose store is being fetched).
type copyState int

const (
	unassigned copyState = iota
	fetching
	initializing
	started
	relocating
)

// stateNames are the names _cat/shards uses.
var stateNames = [...]string{unassigned: "UNASSIGNED", fetching: "UNASSIGNED", initializing: "INITIALIZING", started: "STARTED", relocating: "RELOCATING"}

// shardCopy is one copy (primary or replica) of a shard.
type shardCopy struct {
	primary bool
	state   copyState
	node    int       // the node holding it (or being allocated to); -1 when unassigned
	target  int       // the node a relocating copy moves to; -1 otherwise
	until   time.Time // when the fetch, recovery or relocation in progress ends
	delayed time.Time // a replica whose node left waits until then (zero: not delayed)
	last    int       // the node it was on before it became unassigned; -1 none
	reason  string    // why it is unassigned: INDEX_CREATED, NODE_LEFT, ...
}

// active reports whether the copy serves requests (started or relocating).
func (c *shardCopy) active() bool { return c.state == started || c.state == relocating }

// shardState is one shard: its copies, the primary first.
type shardState struct {
	copies []shardCopy
	lost   bool // no copy can be allocated (Index.Unallocated): red for good
}

// indexState is an index and the allocation of its shards.
type indexState struct {
	Index
	shards []*shardState
}

// node is one simulated node.
type node struct {
	name string
	zone string // the value of its "zone" awareness attribute
	up   bool
}

// simCluster is the simulated cluster: nodes, indices, the allocation of
// their shard copies and the cluster manager's pending tasks. It changes over
// time (copies fetch, initialize, start and relocate on the Clock) and when a
// fault is injected. Every change closes changed, which wakes the waits.
type simCluster struct {
	mu       sync.Mutex
	clock    Clock
	timing   Timing // the configured timing
	slowdown int    // multiplies Fetch, Recovery and Task; 1 is normal speed
	delay    time.Duration

	name    string
	nodes   []node
	indices []*indexState // in the order given
	byName  map[string]*indexState
	tasks   taskQueue

	changed chan struct{} // closed and replaced on every change
	stop    func() bool   // cancels the pending step timer
	waiters int           // health calls blocked on a condition now (tests wait for them)
	blocked int           // times a health call blocked, ever (tests wait for a call to block again)
}

// newSimCluster builds a settled cluster of n nodes: every copy that can be
// allocated is started, a shard's copies on distinct nodes, round-robin.
func newSimCluster(clock Clock, timing Timing, name string, n int, indices []Index) *simCluster {
	c := &simCluster{clock: clock, timing: timing.withDefaults(), slowdown: 1, name: name, changed: make(chan struct{})}
	c.delay = c.timing.DelayedTimeout
	c.build(n, indices)
	return c
}

// build (re)creates the settled state.
func (c *simCluster) build(n int, indices []Index) {
	c.nodes = nil
	for i := range n {
		c.nodes = append(c.nodes, node{name: fmt.Sprintf("node-%d", i+1), zone: fmt.Sprintf("zone-%d", i+1), up: true})
	}
	c.indices, c.byName, c.tasks = nil, map[string]*indexState{}, taskQueue{}
	next := 0
	for _, ix := range indices {
		st := &indexState{Index: ix}
		st.Shards = max(st.Shards, 1)
		st.Replicas = max(st.Replicas, 0)
		for s := range st.Shards {
			sh := &shardState{lost: slices.Contains(st.Unallocated, s)}
			for j := range 1 + st.Replicas {
				cp := shardCopy{primary: j == 0, node: -1, target: -1, last: -1, reason: "CLUSTER_RECOVERED"}
				if !sh.lost && j < n {
					cp.state, cp.node = started, (next+j)%n
				}
				sh.copies = append(sh.copies, cp)
			}
			if !sh.lost {
				next++
			}
			st.shards = append(st.shards, sh)
		}
		c.indices = append(c.indices, st)
		c.byName[st.Name] = st
	}
}

// scaled is d times the allocation slowdown.
func (c *simCluster) scaled(d time.Duration) time.Duration { return d * time.Duration(c.slowdown) }

// changedLocked wakes every wait and schedules the next step. c.mu is held.
func (c *simCluster) changedLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
	c.schedule()
}

// schedule sets the timer for the earliest moment something is due. c.mu is
// held.
func (c *simCluster) schedule() {
	if c.stop != nil {
		c.stop()
		c.stop = nil
	}
	next, ok := c.nextDue()
	if !ok {
		return
	}
	c.stop = c.clock.AfterFunc(next.Sub(c.clock.Now()), c.tick)
}

// nextDue is the earliest time a copy, a delay or a task falls due.
func (c *simCluster) nextDue() (time.Time, bool) {
	var next time.Time
	consider := func(t time.Time) {
		if !t.IsZero() && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	for _, ix := range c.indices {
		for _, sh := range ix.shards {
			for i := range sh.copies {
				cp := &sh.copies[i]
				switch cp.state {
				case fetching, initializing, relocating:
					consider(cp.until)
				case unassigned:
					consider(cp.delayed)
				}
			}
		}
	}
	consider(c.tasks.headDone)
	return next, !next.IsZero()
}

// tick is the timer's callback: it applies what fell due and wakes the waits.
func (c *simCluster) tick() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.step(c.clock.Now())
	c.changedLocked()
}

// step applies every transition due by now, then allocates. c.mu is held.
func (c *simCluster) step(now time.Time) {
	for _, ix := range c.indices {
		for _, sh := range ix.shards {
			for i := range sh.copies {
				c.transition(&sh.copies[i], now)
			}
		}
	}
	c.tasks.process(now, c.scaled(c.timing.Task))
	c.allocate(now)
}

// transition moves one copy on if its fetch, recovery, relocation or delay
// is over. c.mu is held.
func (c *simCluster) transition(cp *shardCopy, now time.Time) {
	switch {
	case cp.state == fetching && !cp.until.After(now):
		cp.state, cp.until = initializing, cp.until.Add(c.scaled(c.timing.Recovery))
		if cp.until.Before(now) {
			cp.until = now
		}
	case cp.state == initializing && !cp.until.After(now):
		cp.state, cp.until, cp.reason = started, time.Time{}, ""
		c.tasks.add(urgent, "shard-started", now, c.scaled(c.timing.Task))
	case cp.state == relocating && !cp.until.After(now):
		cp.state, cp.node, cp.target, cp.until = started, cp.target, -1, time.Time{}
		c.tasks.add(urgent, "shard-started", now, c.scaled(c.timing.Task))
	case cp.state == unassigned && !cp.delayed.IsZero() && !cp.delayed.After(now):
		cp.delayed = time.Time{}
		c.tasks.add(normal, "delayed-reroute", now, c.scaled(c.timing.Task))
	}
}

// runningNodes counts the nodes that are up.
func (c *simCluster) runningNodes() int {
	n := 0
	for _, nd := range c.nodes {
		if nd.up {
			n++
		}
	}
	return n
}

// nodeIndex finds a node by name.
func (c *simCluster) nodeIndex(name string) (int, bool) {
	for i, nd := range c.nodes {
		if nd.name == name {
			return i, true
		}
	}
	return -1, false
}
