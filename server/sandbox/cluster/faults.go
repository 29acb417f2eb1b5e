package cluster

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Limits of the sandbox's create-index call.
const (
	maxShards   = 64
	maxReplicas = 8
	maxIndices  = 200
	maxSlowdown = 100
)

// stopNode takes a node out of the cluster: its copies become unassigned
// (NODE_LEFT), replicas delayed by the delayed timeout, a relocation from or
// to it is cancelled, and a lost primary's active replica is promoted.
// The last running node cannot stop. c.mu is held.
func (c *simCluster) stopNode(name string) *osError {
	n, ok := c.nodeIndex(name)
	if !ok {
		return c.noSuchNode(name)
	}
	if !c.nodes[n].up {
		return nil
	}
	if c.runningNodes() == 1 {
		return illegalArgument("node [%s] is the last running node: the sandbox keeps one node up (a cluster without a cluster manager answers no health)", name)
	}
	now := c.clock.Now()
	c.nodes[n].up = false
	for _, ix := range c.indices {
		for _, sh := range ix.shards {
			for i := range sh.copies {
				cp := &sh.copies[i]
				switch {
				case cp.state == relocating && cp.target == n:
					cp.state, cp.target, cp.until = started, -1, time.Time{}
				case cp.state != unassigned && cp.node == n:
					*cp = shardCopy{primary: cp.primary, state: unassigned, node: -1, target: -1, last: n, reason: "NODE_LEFT"}
					if c.delay > 0 {
						cp.delayed = now.Add(c.delay)
					}
				}
			}
		}
	}
	c.tasks.add(immediate, "node-left", now, c.scaled(c.timing.Task))
	c.allocate(now)
	return nil
}

// startNode brings a stopped node back: copies delayed for it go back to
// it, and once every copy is active, rebalancing moves copies to it. c.mu
// is held.
func (c *simCluster) startNode(name string) *osError {
	n, ok := c.nodeIndex(name)
	if !ok {
		return c.noSuchNode(name)
	}
	if c.nodes[n].up {
		return nil
	}
	now := c.clock.Now()
	c.nodes[n].up = true
	c.tasks.add(urgent, "node-join", now, c.scaled(c.timing.Task))
	c.allocate(now)
	return nil
}

// noSuchNode is the 404 for an unknown node name.
func (c *simCluster) noSuchNode(name string) *osError {
	var names []string
	for _, nd := range c.nodes {
		names = append(names, nd.name)
	}
	return newError(http.StatusNotFound, "resource_not_found_exception",
		"node ["+name+"] not found; the nodes are "+strings.Join(names, ", "))
}

// createIndex adds an index of shards primaries with replicas replicas each;
// its copies start unassigned (INDEX_CREATED) and are allocated at once.
// c.mu is held.
func (c *simCluster) createIndex(name string, shards, replicas int) *osError {
	if err := validIndexName(name); err != nil {
		return err
	}
	if c.byName[name] != nil || slices.Contains(c.aliases(), name) || slices.Contains(c.dataStreams(), name) {
		return newError(http.StatusBadRequest, "resource_already_exists_exception", "index ["+name+"] already exists")
	}
	switch {
	case shards < 1 || shards > maxShards:
		return illegalArgument("Failed to parse value [%d] for setting [index.number_of_shards] must be >= 1 and <= %d", shards, maxShards)
	case replicas < 0 || replicas > maxReplicas:
		return illegalArgument("Failed to parse value [%d] for setting [index.number_of_replicas] must be >= 0 and <= %d", replicas, maxReplicas)
	case len(c.indices) >= maxIndices:
		return illegalArgument("the sandbox holds at most %d indices; delete one or reset", maxIndices)
	}
	now := c.clock.Now()
	ix := &indexState{Index: Index{Name: name, Shards: shards, Replicas: replicas}}
	for range shards {
		sh := &shardState{}
		for j := range 1 + replicas {
			sh.copies = append(sh.copies, shardCopy{primary: j == 0, node: -1, target: -1, last: -1, reason: "INDEX_CREATED"})
		}
		ix.shards = append(ix.shards, sh)
	}
	c.indices = append(c.indices, ix)
	c.byName[name] = ix
	c.tasks.add(urgent, "create-index ["+name+"]", now, c.scaled(c.timing.Task))
	c.allocate(now)
	return nil
}

// validIndexName checks a new index's name as OpenSearch does.
func validIndexName(name string) *osError {
	bad := func(why string) *osError {
		return newError(http.StatusBadRequest, "invalid_index_name_exception", "Invalid index name ["+name+"], "+why)
	}
	switch {
	case name == "":
		return bad("must not be empty")
	case name != strings.ToLower(name):
		return bad("must be lowercase")
	case name == "." || name == "..":
		return bad("must not be '.' or '..'")
	case strings.ContainsAny(name[:1], "_-+"):
		return bad("must not start with '_', '-', or '+'")
	case strings.ContainsAny(name, `\/*?"<>| ,#:`):
		return bad(`must not contain the following characters [ , ", *, \, <, |, ,, >, /, ?, #, :]`)
	case len(name) > 255:
		return bad("index name is too long, (" + strconv.Itoa(len(name)) + " > 255)")
	}
	return nil
}

// deleteIndex removes an index. c.mu is held.
func (c *simCluster) deleteIndex(name string) *osError {
	if c.byName[name] == nil {
		return noSuchIndex(name)
	}
	c.indices = slices.DeleteFunc(c.indices, func(ix *indexState) bool { return ix.Name == name })
	delete(c.byName, name)
	now := c.clock.Now()
	c.tasks.add(urgent, "delete-index ["+name+"]", now, c.scaled(c.timing.Task))
	c.allocate(now)
	return nil
}

// setClosed closes or opens an index. Its active copies recover again on
// their nodes (a relocation is cancelled), as a replicated closed index's
// do, so it is red until its primaries are started. Closing a closed index
// or opening an open one changes nothing. c.mu is held.
func (c *simCluster) setClosed(name string, closed bool) *osError {
	ix := c.byName[name]
	if ix == nil {
		return noSuchIndex(name)
	}
	if ix.Closed == closed {
		return nil
	}
	now := c.clock.Now()
	ix.Closed = closed
	for _, sh := range ix.shards {
		for i := range sh.copies {
			if cp := &sh.copies[i]; cp.active() {
				cp.state, cp.target, cp.until = initializing, -1, now.Add(c.scaled(c.timing.Recovery))
			}
		}
	}
	source := "open-indices"
	if closed {
		source = "close-indices"
	}
	c.tasks.add(urgent, source+" ["+name+"]", now, c.scaled(c.timing.Task))
	c.allocate(now)
	return nil
}

// noSuchIndex is OpenSearch's 404 for an unknown index.
func noSuchIndex(name string) *osError {
	e := newError(http.StatusNotFound, "index_not_found_exception", "no such index ["+name+"]")
	return e
}

// setAllocation changes the allocation slowdown (1 to maxSlowdown) and the
// delayed timeout (negative: unchanged). c.mu is held.
func (c *simCluster) setAllocation(slowdown int, delay time.Duration) *osError {
	if slowdown != 0 {
		if slowdown < 1 || slowdown > maxSlowdown {
			return illegalArgument("slowdown must be between 1 (normal speed) and %d, not %d", maxSlowdown, slowdown)
		}
		c.slowdown = slowdown
	}
	if delay >= 0 {
		c.delay = delay
	}
	c.allocate(c.clock.Now())
	return nil
}
