package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// snapshotVersion is the format of a saved session; one saved in another
// format is refused, and the user is told to reset the sandbox.
const snapshotVersion = 1

// maxCatchUpSteps bounds the steps replayed when a session is restored: a
// settled cluster needs none, a busy one a few hundred.
const maxCatchUpSteps = 100_000

// snapshot is one session's simulation as saved in the store: what the
// configuration does not say (which node is down, every index and the state
// of its shard copies, the pending tasks, the allocation settings). Times are the simulation clock's,
// so a restored session replays what fell due while it was not live.
type snapshot struct {
	V        int           `json:"v"`
	Taken    time.Time     `json:"taken"`
	Nodes    int           `json:"nodes"` // the cluster's size; a snapshot of another size is refused
	Down     []int         `json:"down,omitempty"`
	Slowdown int           `json:"slowdown"`
	Delay    time.Duration `json:"delay"`
	Indices  []indexSnap   `json:"indices"`
	Tasks    []taskSnap    `json:"tasks,omitempty"`
	TaskSeq  int           `json:"task_seq,omitempty"`
	HeadDone time.Time     `json:"head_done,omitzero"`
}

// indexSnap is one index of a snapshot, its shards by number, each the list
// of its copies (the primary first).
type indexSnap struct {
	Name       string       `json:"name"`
	Replicas   int          `json:"replicas"`
	Closed     bool         `json:"closed,omitempty"`
	Hidden     bool         `json:"hidden,omitempty"`
	DataStream string       `json:"data_stream,omitempty"`
	Aliases    []string     `json:"aliases,omitempty"`
	Lost       []int        `json:"lost,omitempty"`
	Shards     [][]copySnap `json:"shards"`
}

// copySnap is one shard copy of a snapshot (node numbers, -1 for none).
type copySnap struct {
	Primary bool      `json:"p,omitempty"`
	State   copyState `json:"s"`
	Node    int       `json:"n"`
	Target  int       `json:"t"`
	Last    int       `json:"l"`
	Until   time.Time `json:"u,omitzero"`
	Delayed time.Time `json:"d,omitzero"`
	Reason  string    `json:"r,omitempty"`
}

// taskSnap is one pending task of a snapshot.
type taskSnap struct {
	Priority int       `json:"p"`
	Source   string    `json:"s"`
	Queued   time.Time `json:"q"`
	Seq      int       `json:"n"`
}

// marshal encodes the cluster now. c.mu is held.
func (c *simCluster) marshal() ([]byte, error) { return json.Marshal(c.snapshot()) }

// snapshot is the cluster now. c.mu is held.
func (c *simCluster) snapshot() snapshot {
	s := snapshot{V: snapshotVersion, Taken: c.clock.Now(), Nodes: len(c.nodes), Slowdown: c.slowdown, Delay: c.delay,
		Indices: make([]indexSnap, 0, len(c.indices)), TaskSeq: c.tasks.seq, HeadDone: c.tasks.headDone}
	for i, n := range c.nodes {
		if !n.up {
			s.Down = append(s.Down, i)
		}
	}
	for _, ix := range c.indices {
		is := indexSnap{Name: ix.Name, Replicas: ix.Replicas, Closed: ix.Closed, Hidden: ix.Hidden,
			DataStream: ix.DataStream, Aliases: ix.Aliases}
		for n, sh := range ix.shards {
			if sh.lost {
				is.Lost = append(is.Lost, n)
			}
			copies := make([]copySnap, len(sh.copies))
			for j, cp := range sh.copies {
				copies[j] = copySnap{Primary: cp.primary, State: cp.state, Node: cp.node, Target: cp.target, Last: cp.last,
					Until: cp.until, Delayed: cp.delayed, Reason: cp.reason}
			}
			is.Shards = append(is.Shards, copies)
		}
		s.Indices = append(s.Indices, is)
	}
	for _, t := range c.tasks.pending {
		s.Tasks = append(s.Tasks, taskSnap{Priority: t.priority, Source: t.source, Queued: t.queued, Seq: t.seq})
	}
	return s
}

// restore puts the saved simulation data into c, a cluster of the configured
// size, then replays, step by step, what fell due on c's clock since it was
// saved, as the live simulation would have done. It does not schedule the
// next step (the caller does, once the session is live). c.mu is held, or c
// is not shared yet.
func (c *simCluster) restore(data []byte) error {
	var s snapshot
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("decoding the saved cluster: %w", err)
	}
	if s.V != snapshotVersion {
		return fmt.Errorf("the saved cluster has format %d; this Loupe reads format %d", s.V, snapshotVersion)
	}
	if err := s.check(len(c.nodes)); err != nil {
		return err
	}
	for i := range c.nodes {
		c.nodes[i].up = true
	}
	for _, n := range s.Down {
		c.nodes[n].up = false
	}
	c.slowdown, c.delay = s.Slowdown, s.Delay
	c.indices, c.byName = nil, map[string]*indexState{}
	for _, is := range s.Indices {
		ix := &indexState{Index: Index{Name: is.Name, Shards: len(is.Shards), Replicas: is.Replicas, Closed: is.Closed,
			Hidden: is.Hidden, DataStream: is.DataStream, Aliases: is.Aliases, Unallocated: is.Lost}}
		for n, copies := range is.Shards {
			sh := &shardState{lost: slices.Contains(is.Lost, n)}
			for _, cp := range copies {
				sh.copies = append(sh.copies, shardCopy{primary: cp.Primary, state: cp.State, node: cp.Node, target: cp.Target,
					last: cp.Last, until: cp.Until, delayed: cp.Delayed, reason: cp.Reason})
			}
			ix.shards = append(ix.shards, sh)
		}
		c.indices = append(c.indices, ix)
		c.byName[ix.Name] = ix
	}
	c.tasks = taskQueue{seq: s.TaskSeq, headDone: s.HeadDone}
	for _, t := range s.Tasks {
		c.tasks.pending = append(c.tasks.pending, task{priority: t.Priority, source: t.Source, queued: t.Queued, seq: t.Seq})
	}
	return c.catchUp(c.clock.Now())
}

// check refuses a snapshot that does not fit a cluster of nodes nodes, so
// that a damaged or foreign record never reaches the simulation.
func (s *snapshot) check(nodes int) error {
	if s.Nodes != nodes {
		return fmt.Errorf("the saved cluster has %d nodes; the configured one has %d", s.Nodes, nodes)
	}
	node := func(n int) bool { return n >= -1 && n < nodes }
	for _, n := range s.Down {
		if n < 0 || n >= nodes {
			return fmt.Errorf("the saved cluster has a stopped node %d out of range", n)
		}
	}
	if s.Slowdown < 1 || s.Slowdown > maxSlowdown || s.Delay < 0 {
		return errors.New("the saved cluster's allocation settings are out of range")
	}
	names := map[string]bool{}
	for _, is := range s.Indices {
		if is.Name == "" || names[is.Name] || len(is.Shards) == 0 {
			return fmt.Errorf("the saved cluster has a bad index %q", is.Name)
		}
		names[is.Name] = true
		for _, copies := range is.Shards {
			if len(copies) != 1+is.Replicas {
				return fmt.Errorf("the saved index %q has %d copies of a shard; it has %d replicas", is.Name, len(copies), is.Replicas)
			}
			for _, cp := range copies {
				active := cp.State != unassigned
				if cp.State < unassigned || cp.State > relocating || !node(cp.Node) || !node(cp.Target) || !node(cp.Last) ||
					active && cp.Node < 0 || cp.State == relocating && cp.Target < 0 {
					return fmt.Errorf("the saved index %q has a shard copy in an impossible state", is.Name)
				}
			}
		}
	}
	return nil
}

// catchUp applies, in order and each at its own time, every step that fell
// due by now: what the clock's timer would have done had the session been
// live. c.mu is held (or c is not shared yet).
func (c *simCluster) catchUp(now time.Time) error {
	for range maxCatchUpSteps {
		next, ok := c.nextDue()
		if !ok || next.After(now) {
			return nil
		}
		c.step(next)
	}
	return errors.New("the saved cluster did not settle while it was replayed")
}
