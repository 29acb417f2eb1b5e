package cluster

import (
	"slices"
	"strings"
)

// Index is one index of the simulated cluster.
type Index struct {
	// Name is the index name.
	Name string
	// Shards is the number of primary shards (at least 1).
	Shards int
	// Replicas is the number of replicas of each primary.
	Replicas int
	// Closed marks a closed index (still allocated, as OpenSearch's
	// replicated closed indices are).
	Closed bool
	// Hidden marks a hidden index: wildcards reach it only with
	// expand_wildcards hidden or all (or, for a name starting with a dot, a
	// pattern starting with a dot).
	Hidden bool
	// DataStream names the data stream this index backs, if any.
	DataStream string
	// Aliases are the aliases pointing at this index.
	Aliases []string
	// Unallocated lists shard numbers none of whose copies can be allocated
	// (a lost primary: the index turns red).
	Unallocated []int
}

// DefaultIndices is the documented dataset: twelve primaries with one
// replica each (24 shard copies), including a closed index, a data stream's
// two hidden backing indices, the security plugin's hidden index and an
// alias, catalog, over products and customers.
func DefaultIndices() []Index {
	return []Index{
		{Name: "products", Shards: 1, Replicas: 1, Aliases: []string{"catalog"}},
		{Name: "customers", Shards: 2, Replicas: 1, Aliases: []string{"catalog"}},
		{Name: "orders", Shards: 3, Replicas: 1},
		{Name: "logs-2026.09", Shards: 1, Replicas: 1, Closed: true},
		{Name: "logs-2026.10", Shards: 1, Replicas: 1},
		{Name: "logs-2026.11", Shards: 1, Replicas: 1},
		{Name: ".ds-logs-app-000001", Shards: 1, Replicas: 1, Hidden: true, DataStream: "logs-app"},
		{Name: ".ds-logs-app-000002", Shards: 1, Replicas: 1, Hidden: true, DataStream: "logs-app"},
		{Name: ".opendistro_security", Shards: 1, Replicas: 1, Hidden: true},
	}
}

// dataStreams lists the data streams' names, sorted.
func (c *simCluster) dataStreams() []string {
	var out []string
	for _, ix := range c.indices {
		if ix.DataStream != "" && !slices.Contains(out, ix.DataStream) {
			out = append(out, ix.DataStream)
		}
	}
	slices.Sort(out)
	return out
}

// aliases lists the aliases' names, sorted.
func (c *simCluster) aliases() []string {
	var out []string
	for _, ix := range c.indices {
		for _, a := range ix.Aliases {
			if !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	slices.Sort(out)
	return out
}

// members lists the indices a data stream or alias name stands for.
func (c *simCluster) members(name string) []string {
	var out []string
	for _, ix := range c.indices {
		if ix.DataStream == name || slices.Contains(ix.Aliases, name) {
			out = append(out, ix.Name)
		}
	}
	return out
}

// dotHidden reports whether pattern may reach the hidden index name without
// expand_wildcards hidden: both start with a dot, as OpenSearch allows.
func dotHidden(pattern, name string) bool {
	return strings.HasPrefix(pattern, ".") && strings.HasPrefix(name, ".")
}
