// Package cluster is the built-in sandbox of the cluster API, as
// content/openapi/cluster.yaml documents it: a search cluster's health
// (GET /_cluster/health and /_cluster/health/{index}) and the security
// plugin's configuration upgrade (GET /_plugins/_security/api/_upgrade_check,
// POST /_plugins/_security/api/_upgrade_perform). Its real counterpart is
// OpenSearch; error bodies, status codes and parameter parsing follow it.
//
// The simulated cluster lives: Options.Nodes data nodes (three by default)
// hold the shard copies of a set of indices, data streams and aliases
// (DefaultIndices), one copy of a shard per node, and it starts settled
// (green with three nodes; yellow with one, whose replicas have nowhere to
// go). Faults injected through the sandbox-only calls under /_sandbox/
// (sandbox.go: stop or start a node, create, close, open or delete an index,
// slow down allocation, reset) set it moving as a real cluster moves, on
// Options.Clock: copies of a stopped node become unassigned (replicas
// delayed, then reallocated), a new index's shards fetch, initialize and
// start, a returning node gets copies back by relocation, and the cluster
// manager's pending tasks and in-flight fetches rise and fall. Status is
// derived shard → index → cluster, the worst of each.
//
// Waiting: every wait_for_* condition really waits (wait.go), woken by each
// change of the cluster, until it holds or timeout passes (30s by default,
// as OpenSearch); then it answers 408 with the normal health body and
// timed_out true. A named index that does not exist is red, and the wait
// goes on until it is created or the timeout passes.
//
// Users: Options.Key is the administrator, Options.ReaderKey a read-only
// user (health, the upgrade check and the sandbox's state; perform and the
// faults answer 403), Options.GuestKey an authenticated user without any
// permission (403 everywhere).
//
// The upgrade endpoints follow the contract (seed) where it differs from the
// real plugin: indicator lists in the check, sentences in the perform answer,
// every component accepted, and 200 with empty upgrades when nothing needs
// upgrading (the plugin answers 400). The body key may be config (contract)
// or configs (plugin), or both; the query parameters of the same names work
// too. The state lives in the handler: a second check after a perform reports
// nothing to upgrade. GET /_plugins/_security/api/roles and rolesmapping (the
// real plugin's calls, secconfig.go) show the components an upgrade changes,
// so a client can back them up first.
//
// Every answer, errors included, honours filter_path, format (json, yaml) and
// pretty as OpenSearch writes them (xcontent.go). Accepted and ignored:
// error_trace, local and cluster_manager_timeout.
//
// It is mounted at /sandbox/cluster with the prefix stripped, so it sees paths
// like /_cluster/health.
package cluster

import (
	"net/http"
	"strings"

	"loupe/server/sandbox"
	sandboxstate "loupe/server/sandbox/state"
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
	// ReaderKey is the credential of a read-only user ("reader", or the
	// basic user name): health, the upgrade check and GET /_sandbox/state
	// answer; perform and the faults answer the documented 403. Empty means
	// DefaultReaderKey. A Key equal to it is ignored (the administrator
	// keeps sandbox.DefaultKey), so a proxy configured to send the read-only
	// key really is read-only.
	ReaderKey string
	// GuestKey, when not empty, is the credential of a user ("guest", or the
	// basic user name) who is authenticated but has no permission: every
	// call answers its documented 403.
	GuestKey string
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
	// Clock moves the simulation and times the waits. Nil means the wall
	// clock; tests give a ManualClock.
	Clock Clock
	// Timing is how long allocation steps take; zero fields mean defaults.
	Timing Timing
	// Registry keeps each sandbox session's cluster (server/sandbox/state):
	// a session reads the shared seeded cluster until it changes something,
	// and its changes are stored there. Nil means a registry of its own
	// over an in-memory store.
	Registry *sandboxstate.Registry
}

// DefaultReaderKey is the read-only credential of the default sandbox,
// documented in content/guides/cluster.md and README.md.
const DefaultReaderKey = "loupe-sandbox-reader-key"

// handler serves the operations over a simulated cluster per sandbox
// session.
type handler struct {
	key, readerKey, guestKey string
	clock                    Clock
	timing                   Timing
	name                     string
	nodes                    int     // the configured size
	indices                  []Index // the configured indices

	seed  *simCluster                   // the seeded cluster, which never changes: what a session reads until it changes something
	users *sandboxstate.API[*userState] // each session's cluster
}

// New returns the sandbox handler.
func New(opts Options) http.Handler {
	h := &handler{key: opts.Key, readerKey: opts.ReaderKey, guestKey: opts.GuestKey, timing: opts.Timing}
	if h.readerKey == "" {
		h.readerKey = DefaultReaderKey
	}
	if h.key == "" || h.key == h.readerKey {
		h.key = sandbox.DefaultKey
	}
	h.name = opts.ClusterName
	if h.name == "" {
		h.name = DefaultClusterName
	}
	h.nodes = opts.Nodes
	if h.nodes <= 0 {
		h.nodes = DefaultNodes
	}
	h.nodes = min(h.nodes, MaxNodes)
	h.indices = opts.Indices
	if h.indices == nil {
		h.indices = DefaultIndices()
	}
	h.clock = opts.Clock
	if h.clock == nil {
		h.clock = realClock{}
	}
	h.seed = h.newSim()
	reg := opts.Registry
	if reg == nil {
		reg = sandboxstate.NewRegistry(sandboxstate.NewMemory(), sandboxstate.Options{DropEvicted: true})
	}
	// A session that only reads shares one userState without a simulation (its reads go to
	// the seed) and takes no place in the registry; its first change gives it its own.
	h.users = sandboxstate.NewAPI(reg, "cluster", h.build).Share(func() (*userState, error) { return &userState{}, nil })
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
		if user.role == roleGuest {
			writeError(w, r, forbiddenHealth(user.name))
			return
		}
		if u := h.user(w, r); u != nil {
			h.health(w, r, path, u)
		}
	case path == UpgradeCheckPath || path == legacyPrefix+"_upgrade_check":
		if !allowMethod(w, r, path, http.MethodGet) {
			return
		}
		if user.role == roleGuest {
			writeJSON(w, r, http.StatusForbidden, forbiddenSecurity(user.name))
			return
		}
		if u := h.user(w, r); u != nil {
			h.check(w, r, path, u)
		}
	case path == UpgradePerformPath || path == legacyPrefix+"_upgrade_perform":
		if !allowMethod(w, r, path, http.MethodPost) {
			return
		}
		if user.role != roleAdmin {
			writeJSON(w, r, http.StatusForbidden, forbiddenSecurity(user.name))
			return
		}
		if u := h.user(w, r); u != nil {
			h.perform(w, r, path, u)
		}
	case path == RolesPath || path == RolesPath+"/" || path == RolesMappingPath || path == RolesMappingPath+"/" ||
		path == legacyPrefix+"roles" || path == legacyPrefix+"rolesmapping":
		if !allowMethod(w, r, path, http.MethodGet) {
			return
		}
		if user.role == roleGuest {
			writeJSON(w, r, http.StatusForbidden, forbiddenEndpoint(user.name, path))
			return
		}
		if u := h.user(w, r); u != nil {
			h.securityConfig(w, r, path, strings.Contains(path, "rolesmapping"), u)
		}
	case strings.HasPrefix(path, SandboxPrefix):
		h.sandboxCall(w, r, path, user)
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
