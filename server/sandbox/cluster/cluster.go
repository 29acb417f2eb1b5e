// Package cluster is the built-in sandbox of the cluster API, as
// content/openapi/cluster.yaml documents it: a search cluster's health
// (GET /_cluster/health and /_cluster/health/{index}) and the security
// plugin's configuration upgrade (GET /_plugins/_security/api/_upgrade_check,
// POST /_plugins/_security/api/_upgrade_perform). Its real counterpart is
// OpenSearch; error bodies, status codes and parameter parsing follow it.
//
// The simulated cluster is static and deterministic: Options.Nodes data nodes
// (three by default) and a fixed set of indices, data streams and aliases
// (DefaultIndices). Shard copies are allocated one per node, so a one-node
// cluster leaves every replica unassigned and is yellow, as a real one is.
//
// Waiting: the cluster never changes, so a wait_for_* condition that does not
// hold at once never will. Instead of blocking until timeout (30s by default
// in OpenSearch) the sandbox waits at most Options.MaxWait (0 by default, so
// it answers at once), then answers what OpenSearch answers on expiry: 408
// with the normal health body and timed_out true. timeout=-1 (no limit) is
// capped the same way. A named index that does not exist makes the answer red
// and never satisfies the wait, so it gets that 408 too, as documented.
//
// The upgrade endpoints follow the contract (seed) where it differs from the
// real plugin: indicator lists in the check, sentences in the perform answer,
// every component accepted, and 200 with empty upgrades when nothing needs
// upgrading (the plugin answers 400). The body key may be config (contract)
// or configs (plugin), or both; the query parameters of the same names work
// too. The state lives in the handler: a second check after a perform reports
// nothing to upgrade.
//
// Accepted and ignored: filter_path, error_trace, local, cluster_manager_timeout
// and wait_for_events (the simulated cluster has no pending tasks).
//
// It is mounted at /sandbox/cluster with the prefix stripped, so it sees paths
// like /_cluster/health.
package cluster

import (
	"net/http"
	"strings"
	"sync"
	"time"

	"loupe/server/sandbox"
)

// Paths the handler serves. The upgrade endpoints also answer under the
// legacy /_opendistro/_security prefix, as the plugin registers both.
const (
	HealthPath         = "/_cluster/health"
	UpgradeCheckPath   = "/_plugins/_security/api/_upgrade_check"
	UpgradePerformPath = "/_plugins/_security/api/_upgrade_perform"
	legacyPrefix       = "/_opendistro/_security/api/"
	pluginPrefix       = "/_plugins/_security/api/"
)

// DefaultClusterName is the cluster_name of every health answer unless
// Options.ClusterName says otherwise.
const DefaultClusterName = "opensearch-cluster"

// DefaultNodes is the size of the simulated cluster unless Options.Nodes says
// otherwise; MaxNodes bounds it.
const (
	DefaultNodes = 3
	MaxNodes     = 100
)

// Options configures New. The zero value is the documented three-node cluster
// accepting sandbox.DefaultKey.
type Options struct {
	// Key is the credential every request must carry, as
	// "Authorization: ApiKey <Key>" or as the password of HTTP basic
	// authentication with any user name. Empty means sandbox.DefaultKey. A
	// request without it gets the security plugin's 401.
	Key string
	// ReaderKey, when not empty, is the credential of a user ("reader", or
	// the basic user name) who is authenticated but has no permission: health
	// and upgrade requests with it get the documented 403 bodies.
	ReaderKey string
	// ClusterName is the cluster_name of health answers; default
	// DefaultClusterName.
	ClusterName string
	// Nodes is the number of nodes, all of them data nodes, between 1 and
	// MaxNodes; 0 means DefaultNodes. With 1, every replica is unassigned and
	// the cluster is yellow (the documented per-index and 408 examples come
	// from such a cluster).
	Nodes int
	// Indices is the cluster's indices. Nil means DefaultIndices().
	Indices []Index
	// MaxWait is the longest the sandbox really waits before answering 408
	// to a wait condition that cannot hold, further capped by the request's
	// timeout. Zero (the default) answers at once.
	MaxWait time.Duration
}

// handler serves the four operations over one simulated cluster.
type handler struct {
	key, readerKey string
	cluster        *simCluster
	maxWait        time.Duration

	mu      sync.Mutex    // guards upgrade
	upgrade *upgradeState // the security configuration's upgrade state
}

// New returns the sandbox handler.
func New(opts Options) http.Handler {
	h := &handler{key: opts.Key, readerKey: opts.ReaderKey, maxWait: max(opts.MaxWait, 0), upgrade: newUpgradeState()}
	if h.key == "" {
		h.key = sandbox.DefaultKey
	}
	name := opts.ClusterName
	if name == "" {
		name = DefaultClusterName
	}
	nodes := opts.Nodes
	if nodes <= 0 {
		nodes = DefaultNodes
	}
	indices := opts.Indices
	if indices == nil {
		indices = DefaultIndices()
	}
	h.cluster = newSimCluster(name, min(nodes, MaxNodes), indices)
	return h
}

// ServeHTTP authenticates (401/403, before routing, as the security plugin
// does), routes by path (400 "no handler found"), then method (405), then
// answers.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := "/" + strings.TrimPrefix(r.URL.Path, "/")
	user, ok := h.authenticate(r)
	if !ok {
		writeUnauthorized(w)
		return
	}
	switch {
	case path == HealthPath || strings.HasPrefix(path, HealthPath+"/"):
		if !allowMethod(w, r, path, http.MethodGet) {
			return
		}
		if user.reader {
			writeError(w, r, forbiddenHealth(user.name))
			return
		}
		h.health(w, r, path)
	case path == UpgradeCheckPath || path == legacyPrefix+"_upgrade_check":
		if !allowMethod(w, r, path, http.MethodGet) {
			return
		}
		if user.reader {
			writeJSON(w, r, http.StatusForbidden, forbiddenSecurity(user.name))
			return
		}
		h.check(w, r, path)
	case path == UpgradePerformPath || path == legacyPrefix+"_upgrade_perform":
		if !allowMethod(w, r, path, http.MethodPost) {
			return
		}
		if user.reader {
			writeJSON(w, r, http.StatusForbidden, forbiddenSecurity(user.name))
			return
		}
		h.perform(w, r, path)
	default:
		writeJSON(w, r, http.StatusBadRequest, map[string]string{
			"error": "no handler found for uri [" + r.URL.RequestURI() + "] and method [" + r.Method + "]",
		})
	}
}

// allowMethod answers OpenSearch's 405 unless r uses method (HEAD counts as
// GET) and reports whether to go on.
func allowMethod(w http.ResponseWriter, r *http.Request, path, method string) bool {
	if r.Method == method || (method == http.MethodGet && r.Method == http.MethodHead) {
		return true
	}
	w.Header().Set("Allow", method)
	writeJSON(w, r, http.StatusMethodNotAllowed, struct {
		Error  string `json:"error"`
		Status int    `json:"status"`
	}{"Incorrect HTTP method for uri [" + path + "] and method [" + r.Method + "], allowed: [" + method + "]", http.StatusMethodNotAllowed})
	return false
}
