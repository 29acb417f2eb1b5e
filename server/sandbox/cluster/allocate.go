package cluster

import (
	"time"
)

// maxRebalance is how many relocations run at once, OpenSearch's
// cluster.routing.allocation.cluster_concurrent_rebalance.
const maxRebalance = 2

// allocate assigns the unassigned copies it can, as OpenSearch's allocator
// does: an active replica is promoted when its primary is lost; a primary
// that held data goes back only to its node, a new one anywhere; replicas
// only once their primary is active, a delayed one only to the node it
// left (until its delay is over); each node recovers at most
// Timing.Recoveries copies at once; every allocation first fetches the
// shard's store (an in-flight fetch). With every copy active, it rebalances.
// c.mu is held.
func (c *simCluster) allocate(now time.Time) {
	load := c.recoveries()
	fetch := now.Add(c.scaled(c.timing.Fetch))
	assigned := false
	assign := func(cp *shardCopy, n int) {
		cp.state, cp.node, cp.until = fetching, n, fetch
		load[n]++
		assigned = true
	}
	// Primaries first, over every index, then replicas, as OpenSearch
	// prioritizes them.
	for _, ix := range c.indices {
		for _, sh := range ix.shards {
			if sh.lost {
				continue
			}
			c.promote(sh)
			p := &sh.copies[0]
			if p.state != unassigned {
				continue
			}
			if p.last < 0 {
				if n := c.pick(sh, load); n >= 0 {
					assign(p, n)
				}
			} else if c.nodes[p.last].up && load[p.last] < c.timing.Recoveries {
				assign(p, p.last)
			}
		}
	}
	for _, ix := range c.indices {
		for _, sh := range ix.shards {
			if sh.lost || !sh.copies[0].active() {
				continue
			}
			for i := 1; i < len(sh.copies); i++ {
				cp := &sh.copies[i]
				if cp.state != unassigned {
					continue
				}
				switch {
				case cp.last >= 0 && c.nodes[cp.last].up && !c.holds(sh, cp.last) && load[cp.last] < c.timing.Recoveries:
					assign(cp, cp.last)
				case cp.delayed.After(now):
				default:
					if n := c.pick(sh, load); n >= 0 {
						assign(cp, n)
					}
				}
			}
		}
	}
	if assigned {
		c.tasks.add(high, "cluster_reroute(async_shard_fetch)", now, c.scaled(c.timing.Task))
	}
	c.rebalance(now)
}

// promote makes an active replica the primary when the primary is not
// assigned, keeping the primary first. c.mu is held.
func (c *simCluster) promote(sh *shardState) {
	if sh.copies[0].state != unassigned {
		return
	}
	for i := 1; i < len(sh.copies); i++ {
		if sh.copies[i].active() {
			sh.copies[0], sh.copies[i] = sh.copies[i], sh.copies[0]
			sh.copies[0].primary, sh.copies[i].primary = true, false
			return
		}
	}
}

// recoveries counts, per node, the copies it is fetching, recovering or
// receiving by relocation.
func (c *simCluster) recoveries() []int {
	load := make([]int, len(c.nodes))
	for _, ix := range c.indices {
		for _, sh := range ix.shards {
			for _, cp := range sh.copies {
				switch cp.state {
				case fetching, initializing:
					load[cp.node]++
				case relocating:
					load[cp.target]++
				}
			}
		}
	}
	return load
}

// holds reports whether node n has, or is receiving, a copy of sh.
func (c *simCluster) holds(sh *shardState, n int) bool {
	for _, cp := range sh.copies {
		if (cp.state != unassigned && cp.node == n) || (cp.state == relocating && cp.target == n) {
			return true
		}
	}
	return false
}

// counts is the number of copies on (or coming to) each running node.
func (c *simCluster) counts() []int {
	out := make([]int, len(c.nodes))
	for _, ix := range c.indices {
		for _, sh := range ix.shards {
			for _, cp := range sh.copies {
				switch cp.state {
				case fetching, initializing, started:
					out[cp.node]++
				case relocating:
					out[cp.target]++
				}
			}
		}
	}
	return out
}

// pick chooses a running node for a new copy of sh: not holding one, with
// room to recover, the fewest copies first (then the lowest number), or -1.
func (c *simCluster) pick(sh *shardState, load []int) int {
	counts := c.counts()
	best := -1
	for n, nd := range c.nodes {
		if !nd.up || c.holds(sh, n) || load[n] >= c.timing.Recoveries {
			continue
		}
		if best < 0 || counts[n] < counts[best] {
			best = n
		}
	}
	return best
}

// rebalance moves started copies from the fullest running node to the
// emptiest while they differ by more than one, as long as every copy of
// every index is active (OpenSearch's allow_rebalance: indices_all_active),
// at most maxRebalance at a time. c.mu is held.
func (c *simCluster) rebalance(now time.Time) {
	moving := 0
	for _, ix := range c.indices {
		for _, sh := range ix.shards {
			for _, cp := range sh.copies {
				if !sh.lost && !cp.active() {
					return
				}
				if cp.state == relocating {
					moving++
				}
			}
		}
	}
	for moving < maxRebalance {
		counts := c.counts()
		hi, lo := -1, -1
		for n, nd := range c.nodes {
			if !nd.up {
				continue
			}
			if hi < 0 || counts[n] > counts[hi] {
				hi = n
			}
			if lo < 0 || counts[n] < counts[lo] {
				lo = n
			}
		}
		if hi < 0 || counts[hi]-counts[lo] <= 1 || !c.relocateOne(hi, lo, now) {
			return
		}
		moving++
	}
}

// relocateOne starts moving a started copy (a replica if it can) from node
// from to node to, reporting whether it found one.
func (c *simCluster) relocateOne(from, to int, now time.Time) bool {
	for _, replicas := range []bool{true, false} {
		for _, ix := range c.indices {
			for _, sh := range ix.shards {
				if c.holds(sh, to) {
					continue
				}
				for i := range sh.copies {
					cp := &sh.copies[i]
					if cp.state == started && cp.node == from && cp.primary != replicas {
						cp.state, cp.target, cp.until = relocating, to, now.Add(c.scaled(c.timing.Recovery))
						return true
					}
				}
			}
		}
	}
	return false
}
