package cluster

import (
	"encoding/json"
	"fmt"
)

// clusterState is the cluster sandbox's GET /_sandbox/state answer, as the picture reads it.
type clusterState struct {
	Health struct {
		Status              string  `json:"status"`
		NumberOfNodes       int     `json:"number_of_nodes"`
		ActivePrimaryShards int     `json:"active_primary_shards"`
		ActiveShards        int     `json:"active_shards"`
		RelocatingShards    int     `json:"relocating_shards"`
		InitializingShards  int     `json:"initializing_shards"`
		UnassignedShards    int     `json:"unassigned_shards"`
		DelayedUnassigned   int     `json:"delayed_unassigned_shards"`
		PendingTasks        int     `json:"number_of_pending_tasks"`
		InFlightFetch       int     `json:"number_of_in_flight_fetch"`
		ActivePercent       float64 `json:"active_shards_percent_as_number"`
	} `json:"health"`
	Nodes []struct {
		Name string `json:"name"`
		Up   bool   `json:"up"`
	} `json:"nodes"`
	Indices []struct {
		Name   string `json:"name"`
		Status string `json:"status"`
		Closed bool   `json:"closed"`
		Hidden bool   `json:"hidden"`
		Shards []struct {
			Shard  int         `json:"shard"`
			Status string      `json:"status"`
			Copies []shardCopy `json:"copies"`
		} `json:"shards"`
	} `json:"indices"`
	Allocation struct {
		Slowdown       int    `json:"slowdown"`
		DelayedTimeout string `json:"delayed_timeout"`
	} `json:"allocation"`
}

// shardCopy is one copy of a shard in the state.
type shardCopy struct {
	Primary bool   `json:"primary"`
	State   string `json:"state"`
	Node    string `json:"node"`
	Target  string `json:"relocating_node"`
	Fetch   bool   `json:"fetching"`
	Delayed bool   `json:"delayed"`
	Reason  string `json:"unassigned_reason"`
}

// parseClusterState decodes a state answer.
func parseClusterState(body []byte) (*clusterState, error) {
	var s clusterState
	if err := json.Unmarshal(body, &s); err != nil {
		return nil, fmt.Errorf("reading the sandbox's state: %w", err)
	}
	if s.Health.Status == "" {
		return nil, fmt.Errorf("reading the sandbox's state: the answer has no health")
	}
	return &s, nil
}

// moving reports whether the cluster is changing right now (a copy fetching, initializing or
// relocating, a task pending): the picture then refreshes quickly.
func (s *clusterState) moving() bool {
	h := s.Health
	return h.InitializingShards+h.RelocatingShards+h.InFlightFetch+h.PendingTasks > 0
}

// pictureCell is one copy as the picture draws it.
type pictureCell struct {
	Shard   int
	Primary bool
	Status  string // the shard's status: green, yellow or red
	State   string // STARTED, INITIALIZING, RELOCATING, UNASSIGNED
	Note    string // → node for a relocation, "fetching", "delayed"
}

// label is the cell's short text: the shard number and P or R.
func (c pictureCell) label() string {
	kind := "R"
	if c.Primary {
		kind = "P"
	}
	return fmt.Sprint(c.Shard) + kind
}

// title is the cell's full description, for its tooltip and screen readers.
func (c pictureCell) title(index string) string {
	kind := "replica"
	if c.Primary {
		kind = "primary"
	}
	t := fmt.Sprintf("%s shard %d %s: %s (shard %s)", index, c.Shard, kind, c.State, c.Status)
	if c.Note != "" {
		t += ", " + c.Note
	}
	return t
}

// cells lays index i out by node: the copies on each node (a relocating copy at its source
// and, arriving, at its target), and the unassigned ones under "".
func (s *clusterState) cells(i int) map[string][]pictureCell {
	out := map[string][]pictureCell{}
	for _, sh := range s.Indices[i].Shards {
		for _, c := range sh.Copies {
			cell := pictureCell{Shard: sh.Shard, Primary: c.Primary, Status: sh.Status, State: c.State}
			switch {
			case c.State == "RELOCATING":
				cell.Note = "moving to " + c.Target
				out[c.Target] = append(out[c.Target], pictureCell{Shard: sh.Shard, Primary: c.Primary, Status: sh.Status,
					State: "INITIALIZING", Note: "arriving from " + c.Node})
			case c.Fetch:
				cell.Note = "fetching for " + c.Node
			case c.Delayed:
				cell.Note = "delayed, waiting for its node"
			}
			node := c.Node
			if c.State == "UNASSIGNED" {
				node = ""
			}
			out[node] = append(out[node], cell)
		}
	}
	return out
}
