package cluster

import (
	"fmt"
	"net/http"
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

// health answers GET /_cluster/health[/{index}]: 200, or 408 with the same
// body when a wait condition does not hold (after at most MaxWait).
func (h *handler) health(w http.ResponseWriter, r *http.Request, path string) {
	req, apiErr := parseHealth(path, r.URL.Query())
	if apiErr != nil {
		writeError(w, r, apiErr)
		return
	}
	if req.deprecatedMaster {
		w.Header().Add("Warning", masterTimeoutWarning)
	}
	body, met := h.cluster.health(req)
	status := http.StatusOK
	if !met {
		h.wait(r, req.timeout)
		body.TimedOut = true
		status = http.StatusRequestTimeout
	}
	writeJSON(w, r, status, body)
}

// wait blocks for the request's timeout (-1: no limit), at most MaxWait, or
// until the client goes away.
func (h *handler) wait(r *http.Request, timeout time.Duration) {
	d := h.maxWait
	if timeout >= 0 {
		d = min(d, timeout)
	}
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.Context().Done():
	}
}

// health computes the answer to req and reports whether every wait
// condition holds (a named index that does not exist never does).
func (c *simCluster) health(req *healthRequest) (*healthBody, bool) {
	var selected []*indexState
	var missing []string
	if len(req.indices) == 0 {
		for i := range c.indices {
			selected = append(selected, &c.indices[i])
		}
	} else {
		res := c.resolve(req.indices, req.states)
		for _, n := range res.names {
			selected = append(selected, c.byName[n])
		}
		missing = res.missing
	}
	b := &healthBody{
		ClusterName: c.name, NumberOfNodes: len(c.nodes), NumberOfDataNodes: len(c.nodes),
		DiscoveredMaster: true, DiscoveredClusterManager: true,
	}
	worst := green
	indices := map[string]*indexBody{}
	for _, ix := range selected {
		ib, st := ix.health(req.level == "shards")
		worst = max(worst, st)
		indices[ix.Name] = ib
		b.ActivePrimaryShards += ib.ActivePrimaryShards
		b.ActiveShards += ib.ActiveShards
		b.UnassignedShards += ib.UnassignedShards
	}
	b.Status = statusNames[worst]
	// As OpenSearch: 100 when green, else over every shard copy of the cluster.
	b.ActiveShardsPercentAsNumber = 100
	if worst != green {
		active, total := c.copies()
		b.ActiveShardsPercentAsNumber = javaDouble(float64(active) / float64(total) * 100)
	}
	switch req.level {
	case "indices", "shards":
		b.Indices = indices
	case "awareness_attributes":
		b.AwarenessAttributes = c.awareness(req.awarenessAttr)
	}
	if req.human {
		b.TaskMaxWaitingInQueue = "0s"
		b.ActiveShardsPercent = fmt.Sprintf("%.1f%%", float64(b.ActiveShardsPercentAsNumber))
	}
	met := true
	if len(missing) > 0 {
		b.Status = statusNames[red] // missing indices count as red, and never appear
		met = false
	}
	return b, met && req.holds(b, len(missing) == 0)
}

// holds reports whether the wait conditions of req hold for b.
func (req *healthRequest) holds(b *healthBody, found bool) bool {
	status := map[string]int{"green": green, "yellow": yellow, "red": red}[b.Status]
	switch {
	case req.waitStatus >= 0 && status > req.waitStatus,
		req.waitNoRelocating && b.RelocatingShards > 0,
		req.waitNoInitializing && b.InitializingShards > 0,
		req.waitActive == activeAll && (b.UnassignedShards > 0 || b.InitializingShards > 0),
		req.waitActive > 0 && b.ActiveShards < req.waitActive,
		!found:
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

// health computes one index's health, with its shards when withShards.
func (ix *indexState) health(withShards bool) (*indexBody, int) {
	ib := &indexBody{NumberOfShards: ix.Shards, NumberOfReplicas: ix.Replicas}
	shards := map[string]shardBody{}
	worst := green
	for n, sh := range ix.shards {
		st := green
		switch {
		case sh.assigned == 0:
			st = red
		case sh.assigned < sh.copies:
			st = yellow
		}
		worst = max(worst, st)
		if sh.assigned > 0 {
			ib.ActivePrimaryShards++
		}
		ib.ActiveShards += sh.assigned
		ib.UnassignedShards += sh.copies - sh.assigned
		shards[strconv.Itoa(n)] = shardBody{Status: statusNames[st], PrimaryActive: sh.assigned > 0,
			ActiveShards: sh.assigned, UnassignedShards: sh.copies - sh.assigned}
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
			active += sh.assigned
			total += sh.copies
		}
	}
	return active, total
}

// awareness is the awareness_attributes block: per value of the zone
// attribute (each node has its own zone), the copies on its nodes. A named
// attribute other than zone gives an empty block.
func (c *simCluster) awareness(attr string) map[string]map[string]awarenessBody {
	out := map[string]map[string]awarenessBody{}
	if attr != "" && attr != "zone" {
		return out
	}
	zones := map[string]awarenessBody{}
	perNode := make([]int, len(c.nodes))
	for _, ix := range c.indices {
		for _, sh := range ix.shards {
			for _, n := range sh.nodes {
				perNode[n]++
			}
		}
	}
	for i, n := range c.nodes {
		z := zones[n.zone]
		z.ActiveShards += perNode[i]
		z.UnassignedShards = -1
		z.DataNodes++
		z.Weight = 1
		zones[n.zone] = z
	}
	out["zone"] = zones
	return out
}
