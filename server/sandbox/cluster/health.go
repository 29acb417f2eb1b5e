package cluster

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// masterTimeoutWarning is the deprecation warning OpenSearch sends for
// master_timeout.
const masterTimeoutWarning = `299 OpenSearch-loupe-sandbox "Parameter [master_timeout] is deprecated and will be removed in 3.0. To support inclusive language, please use [cluster_manager_timeout] instead."`

// javaDouble is a number written as Java writes a double: 100.0, 50.0, 66.66666666666666.
type javaDouble float64

// MarshalJSON implements json.Marshaler.
func (d javaDouble) MarshalJSON() ([]byte, error) {
	s := strconv.FormatFloat(float64(d), 'f', -1, 64)
	if float64(d) == float64(int64(d)) {
		s += ".0"
	}
	return []byte(s), nil
}

// healthBody is the cluster health answer, fields in OpenSearch's order.
type healthBody struct {
	ClusterName                 string     `json:"cluster_name"`
	Status                      string     `json:"status"`
	TimedOut                    bool       `json:"timed_out"`
	NumberOfNodes               int        `json:"number_of_nodes"`
	NumberOfDataNodes           int        `json:"number_of_data_nodes"`
	DiscoveredMaster            bool       `json:"discovered_master"`
	DiscoveredClusterManager    bool       `json:"discovered_cluster_manager"`
	ActivePrimaryShards         int        `json:"active_primary_shards"`
	ActiveShards                int        `json:"active_shards"`
	RelocatingShards            int        `json:"relocating_shards"`
	InitializingShards          int        `json:"initializing_shards"`
	UnassignedShards            int        `json:"unassigned_shards"`
	DelayedUnassignedShards     int        `json:"delayed_unassigned_shards"`
	NumberOfPendingTasks        int        `json:"number_of_pending_tasks"`
	NumberOfInFlightFetch       int        `json:"number_of_in_flight_fetch"`
	TaskMaxWaitingInQueue       string     `json:"task_max_waiting_in_queue,omitempty"` // with ?human
	TaskMaxWaitingInQueueMillis int        `json:"task_max_waiting_in_queue_millis"`
	ActiveShardsPercent         string     `json:"active_shards_percent,omitempty"` // with ?human
	ActiveShardsPercentAsNumber javaDouble `json:"active_shards_percent_as_number"`
	Indices                     any        `json:"indices,omitempty"`              // map[string]*indexBody
	AwarenessAttributes         any        `json:"awareness_attributes,omitempty"` // map[string]map[string]awarenessBody
}

// indexBody is one index's health.
type indexBody struct {
	Status              string `json:"status"`
	NumberOfShards      int    `json:"number_of_shards"`
	NumberOfReplicas    int    `json:"number_of_replicas"`
	ActivePrimaryShards int    `json:"active_primary_shards"`
	ActiveShards        int    `json:"active_shards"`
	RelocatingShards    int    `json:"relocating_shards"`
	InitializingShards  int    `json:"initializing_shards"`
	UnassignedShards    int    `json:"unassigned_shards"`
	Shards              any    `json:"shards,omitempty"` // map[string]shardBody, with level=shards
}

// shardBody is one shard's health.
type shardBody struct {
	Status             string `json:"status"`
	PrimaryActive      bool   `json:"primary_active"`
	ActiveShards       int    `json:"active_shards"`
	RelocatingShards   int    `json:"relocating_shards"`
	InitializingShards int    `json:"initializing_shards"`
	UnassignedShards   int    `json:"unassigned_shards"`
}

// awarenessBody is the health of the nodes having one attribute value.
type awarenessBody struct {
	ActiveShards       int        `json:"active_shards"`
	InitializingShards int        `json:"initializing_shards"`
	RelocatingShards   int        `json:"relocating_shards"`
	UnassignedShards   int        `json:"unassigned_shards"`
	DataNodes          int        `json:"data_nodes"`
	Weight             javaDouble `json:"weight"`
}

// health computes the answer to req at now and reports whether every wait
// condition holds (a named index that does not exist never does). c.mu is
// held.
func (c *simCluster) health(req *healthRequest, now time.Time) (*healthBody, bool) {
	var selected []*indexState
	var missing []string
	if len(req.indices) == 0 {
		selected = c.indices
	} else {
		res := c.resolve(req.indices, req.states)
		for _, n := range res.names {
			selected = append(selected, c.byName[n])
		}
		missing = res.missing
	}
	running := c.runningNodes()
	b := &healthBody{
		ClusterName: c.name, NumberOfNodes: running, NumberOfDataNodes: running,
		DiscoveredMaster: true, DiscoveredClusterManager: true,
		NumberOfPendingTasks:        len(c.tasks.pending),
		TaskMaxWaitingInQueueMillis: int(c.tasks.maxWaiting(now).Milliseconds()),
	}
	worst := green
	var indices map[string]*indexBody // only what the level shows is built
	if req.level == "indices" || req.level == "shards" {
		indices = make(map[string]*indexBody, len(selected))
	}
	for _, ix := range selected {
		ib, st := ix.health(req.level == "shards")
		worst = max(worst, st)
		if indices != nil {
			indices[ix.Name] = ib
		}
		b.ActivePrimaryShards += ib.ActivePrimaryShards
		b.ActiveShards += ib.ActiveShards
		b.RelocatingShards += ib.RelocatingShards
		b.InitializingShards += ib.InitializingShards
		b.UnassignedShards += ib.UnassignedShards
	}
	// Delayed copies and fetches are counted over the whole cluster, as
	// OpenSearch does.
	for _, ix := range c.indices {
		for _, sh := range ix.shards {
			for _, cp := range sh.copies {
				switch {
				case cp.state == fetching:
					b.NumberOfInFlightFetch++
				case cp.state == unassigned && cp.delayed.After(now):
					b.DelayedUnassignedShards++
				}
			}
		}
	}
	b.Status = statusNames[worst]
	// As OpenSearch: 100 when green, else over every shard copy of the cluster.
	b.ActiveShardsPercentAsNumber = 100
	if active, total := c.copies(); worst != green && total > 0 {
		b.ActiveShardsPercentAsNumber = javaDouble(float64(active) / float64(total) * 100)
	}
	switch req.level {
	case "indices", "shards":
		b.Indices = indices
	case "awareness_attributes":
		b.AwarenessAttributes = c.awareness(req.awarenessAttr)
	}
	if req.human {
		b.TaskMaxWaitingInQueue = humanDuration(time.Duration(b.TaskMaxWaitingInQueueMillis) * time.Millisecond)
		b.ActiveShardsPercent = fmt.Sprintf("%.1f%%", float64(b.ActiveShardsPercentAsNumber))
	}
	if len(missing) > 0 {
		b.Status = statusNames[red] // missing indices count as red, and never appear
		return b, false
	}
	return b, req.holds(b) && (req.waitEvents < 0 || !c.tasks.pendingAtLeast(req.waitEvents))
}

// humanDuration writes d as OpenSearch's TimeValue.toString does: 0s,
// 250ms, 1.2s, 3m (one fractional digit, dropped when zero).
func humanDuration(d time.Duration) string {
	frac := func(v float64, unit string) string {
		return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) + unit
	}
	switch {
	case d <= 0:
		return "0s"
	case d < time.Second:
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	case d < time.Minute:
		return frac(d.Seconds(), "s")
	case d < time.Hour:
		return frac(d.Minutes(), "m")
	}
	return frac(d.Hours(), "h")
}

// holds reports whether the wait conditions of req on shards and nodes hold
// for b.
func (req *healthRequest) holds(b *healthBody) bool {
	status := map[string]int{"green": green, "yellow": yellow, "red": red}[b.Status]
	switch {
	case req.waitStatus >= 0 && status > req.waitStatus,
		req.waitNoRelocating && b.RelocatingShards > 0,
		req.waitNoInitializing && b.InitializingShards > 0,
		req.waitActive == activeAll && (b.UnassignedShards > 0 || b.InitializingShards > 0),
		req.waitActive > 0 && b.ActiveShards < req.waitActive:
		return false
	}
	if req.waitNodes != "" {
		op, n, _ := parseWaitNodes(req.waitNodes)
		have := b.NumberOfNodes
		ok := map[string]bool{"==": have == n, ">=": have >= n, "<=": have <= n, ">": have > n, "<": have < n}[op]
		if !ok {
			return false
		}
	}
	return true
}

// health computes one index's health, with its shards when withShards: a
// shard is red without an active primary, yellow with an inactive replica.
func (ix *indexState) health(withShards bool) (*indexBody, int) {
	ib := &indexBody{NumberOfShards: ix.Shards, NumberOfReplicas: ix.Replicas}
	var shards map[string]shardBody
	if withShards {
		shards = make(map[string]shardBody, len(ix.shards))
	}
	worst := green
	for n, sh := range ix.shards {
		var sb shardBody
		st := green
		for _, cp := range sh.copies {
			switch cp.state {
			case started:
				sb.ActiveShards++
			case relocating:
				sb.ActiveShards++
				sb.RelocatingShards++
			case initializing:
				sb.InitializingShards++
			default:
				sb.UnassignedShards++
			}
			switch {
			case cp.primary && cp.active():
				sb.PrimaryActive = true
			case cp.primary:
				st = red
			case !cp.active():
				st = max(st, yellow)
			}
		}
		sb.Status = statusNames[st]
		worst = max(worst, st)
		if sb.PrimaryActive {
			ib.ActivePrimaryShards++
		}
		ib.ActiveShards += sb.ActiveShards
		ib.RelocatingShards += sb.RelocatingShards
		ib.InitializingShards += sb.InitializingShards
		ib.UnassignedShards += sb.UnassignedShards
		if shards != nil {
			shards[strconv.Itoa(n)] = sb
		}
	}
	ib.Status = statusNames[worst]
	if withShards {
		ib.Shards = shards
	}
	return ib, worst
}

// copies counts the active and all shard copies of the cluster.
func (c *simCluster) copies() (active, total int) {
	for _, ix := range c.indices {
		for _, sh := range ix.shards {
			for _, cp := range sh.copies {
				if cp.active() {
					active++
				}
				total++
			}
		}
	}
	return active, total
}

// awareness is the awareness_attributes block: per value of the zone
// attribute (each running node has its own zone), the copies on its nodes.
// A named attribute other than zone gives an empty block.
func (c *simCluster) awareness(attr string) map[string]map[string]awarenessBody {
	out := map[string]map[string]awarenessBody{}
	if attr != "" && attr != "zone" {
		return out
	}
	zones := map[string]awarenessBody{}
	for i, n := range c.nodes {
		if !n.up {
			continue
		}
		z := zones[n.zone]
		for _, ix := range c.indices {
			for _, sh := range ix.shards {
				for _, cp := range sh.copies {
					switch {
					case cp.node == i && cp.active():
						z.ActiveShards++
						if cp.state == relocating {
							z.RelocatingShards++
						}
					case cp.node == i && cp.state == initializing:
						z.InitializingShards++
					}
				}
			}
		}
		z.UnassignedShards = -1
		z.DataNodes++
		z.Weight = 1
		zones[n.zone] = z
	}
	out["zone"] = zones
	return out
}
