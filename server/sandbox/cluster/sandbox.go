package cluster

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
)

// SandboxPrefix is where the sandbox-only calls live: they are no part of
// the real API (content/guides/cluster.md documents them as such) and let a
// user see the shard picture and inject faults.
//
//	GET    /_sandbox/state                    the picture: nodes, indices, shard copies, health
//	POST   /_sandbox/nodes/{node}/_stop       take a node out
//	POST   /_sandbox/nodes/{node}/_start      bring it back
//	PUT    /_sandbox/indices/{index}          create an index: {"shards": N, "replicas": R}
//	DELETE /_sandbox/indices/{index}          delete it
//	POST   /_sandbox/indices/{index}/_close   close it (its copies recover again)
//	POST   /_sandbox/indices/{index}/_open    open it
//	PUT    /_sandbox/allocation               {"slowdown": 1-100, "delayed_timeout": "1m"}
//	POST   /_sandbox/_reset                   the cluster and security configuration as at start
//
// A change answers {"acknowledged": true}, as OpenSearch's index calls do;
// the state shows its effect. Reading the state needs the read-only user at
// least; changes need the administrator.
const SandboxPrefix = "/_sandbox/"

// stateBody is the answer of every sandbox-only call.
type stateBody struct {
	Health     *healthBody    `json:"health"`
	Nodes      []nodeBody     `json:"nodes"`
	Indices    []indexPicture `json:"indices"`
	Allocation allocationBody `json:"allocation"`
}

// nodeBody is one node of the state.
type nodeBody struct {
	Name string `json:"name"`
	Zone string `json:"zone"`
	Up   bool   `json:"up"`
}

// indexPicture is one index of the state, its shards by number.
type indexPicture struct {
	Name     string         `json:"name"`
	Status   string         `json:"status"`
	Closed   bool           `json:"closed"`
	Hidden   bool           `json:"hidden"`
	Replicas int            `json:"number_of_replicas"`
	Shards   []shardPicture `json:"shards"`
}

// shardPicture is one shard and its copies, the primary first.
type shardPicture struct {
	Shard  int           `json:"shard"`
	Status string        `json:"status"`
	Copies []copyPicture `json:"copies"`
}

// copyPicture is one shard copy as _cat/shards shows it.
type copyPicture struct {
	Primary bool   `json:"primary"`
	State   string `json:"state"`          // UNASSIGNED, INITIALIZING, STARTED, RELOCATING
	Node    string `json:"node,omitempty"` // the node holding it (or fetching for it)
	Target  string `json:"relocating_node,omitempty"`
	Fetch   bool   `json:"fetching,omitempty"` // unassigned while its store is fetched
	Delayed bool   `json:"delayed,omitempty"`  // unassigned, its allocation delayed
	Reason  string `json:"unassigned_reason,omitempty"`
}

// allocationBody is the allocation settings of the state.
type allocationBody struct {
	Slowdown       int    `json:"slowdown"`
	DelayedTimeout string `json:"delayed_timeout"`
}

// sandboxCall serves the sandbox-only calls.
func (h *handler) sandboxCall(w http.ResponseWriter, r *http.Request, path string, u user) {
	rest := strings.TrimPrefix(path, SandboxPrefix)
	parts := strings.Split(rest, "/")
	method := map[bool]string{true: http.MethodGet}[r.Method == http.MethodHead]
	if method == "" {
		method = r.Method
	}
	var route, want string
	switch {
	case rest == "state":
		route, want = "state", http.MethodGet
	case rest == "_reset":
		route, want = "reset", http.MethodPost
	case rest == "allocation":
		route, want = "allocation", http.MethodPut
	case len(parts) == 3 && parts[0] == "nodes" && (parts[2] == "_stop" || parts[2] == "_start"):
		route, want = parts[2], http.MethodPost
	case len(parts) == 3 && parts[0] == "indices" && (parts[2] == "_close" || parts[2] == "_open"):
		route, want = parts[2], http.MethodPost
	case len(parts) == 2 && parts[0] == "indices" && parts[1] != "":
		route, want = "index", http.MethodPut
		if method == http.MethodDelete {
			want = http.MethodDelete
		}
	default:
		writeJSON(w, r, http.StatusBadRequest, map[string]string{
			"error": "no handler found for uri [" + r.URL.RequestURI() + "] and method [" + r.Method + "]",
		})
		return
	}
	if !allowMethod(w, r, path, want) {
		return
	}
	if err := checkParams(path, r.URL.Query(), nil); err != nil {
		writeError(w, r, err)
		return
	}
	if u.role == roleGuest || (u.role == roleReader && want != http.MethodGet) {
		writeError(w, r, forbiddenSandbox(u.name, want == http.MethodGet))
		return
	}
	if route == "reset" {
		if err := h.users.Reset(r.Context()); err != nil {
			writeError(w, r, stateError(err))
			return
		}
		writeJSON(w, r, http.StatusOK, map[string]bool{"acknowledged": true})
		return
	}
	var op func(c *simCluster) *osError
	if route != "state" {
		var apiErr *osError
		if op, apiErr = readFault(r, route, want, parts); apiErr != nil {
			writeError(w, r, apiErr)
			return
		}
	}
	us := h.user(w, r)
	if us == nil {
		return
	}
	if route == "state" {
		c := h.cluster(us)
		c.mu.Lock()
		picture := c.state()
		c.mu.Unlock()
		writeJSON(w, r, http.StatusOK, picture)
		return
	}
	switch apiErr := h.change(r.Context(), us, op); {
	case apiErr != nil:
		writeError(w, r, apiErr)
	default:
		writeJSON(w, r, http.StatusOK, map[string]bool{"acknowledged": true})
	}
}

// readFault reads the sandbox-only change route of r (the path's parts and the
// body name what) and returns it as an operation on a cluster, run with its
// lock held; a bad body is answered before any cluster is touched.
func readFault(r *http.Request, route, method string, parts []string) (func(c *simCluster) *osError, *osError) {
	switch route {
	case "_stop":
		return func(c *simCluster) *osError { return c.stopNode(parts[1]) }, nil
	case "_start":
		return func(c *simCluster) *osError { return c.startNode(parts[1]) }, nil
	case "_close", "_open":
		return func(c *simCluster) *osError { return c.setClosed(parts[1], route == "_close") }, nil
	case "index":
		if method == http.MethodDelete {
			return func(c *simCluster) *osError { return c.deleteIndex(parts[1]) }, nil
		}
		var body struct {
			Shards   *int `json:"shards"`
			Replicas *int `json:"replicas"`
		}
		if apiErr := readBody(r, &body); apiErr != nil {
			return nil, apiErr
		}
		return func(c *simCluster) *osError {
			return c.createIndex(parts[1], deref(body.Shards, 1), deref(body.Replicas, 1))
		}, nil
	case "allocation":
		var body struct {
			Slowdown       int     `json:"slowdown"`
			DelayedTimeout *string `json:"delayed_timeout"`
		}
		if apiErr := readBody(r, &body); apiErr != nil {
			return nil, apiErr
		}
		delay := time.Duration(-1)
		if body.DelayedTimeout != nil {
			var apiErr *osError
			if delay, apiErr = parseTimeValue("delayed_timeout", *body.DelayedTimeout); apiErr != nil {
				return nil, apiErr
			}
			delay = max(delay, 0)
		}
		return func(c *simCluster) *osError { return c.setAllocation(body.Slowdown, delay) }, nil
	}
	return nil, illegalArgument("no sandbox change is called %s", route)
}

// deref is *p, or def when p is nil.
func deref(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// readBody decodes an optional JSON object body into v, refusing unknown
// fields.
func readBody(r *http.Request, v any) *osError {
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if err != nil || len(raw) > maxBodyBytes {
		return illegalArgument("the request body could not be read or is larger than %d bytes", maxBodyBytes)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return newError(http.StatusBadRequest, "parse_exception", "failed to parse the request body: "+bodyProblem(err))
	}
	return nil
}

// forbiddenSandbox is the 403 of a user who may not read (guest) or change
// (reader) the sandbox.
func forbiddenSandbox(name string, read bool) *osError {
	action := "sandbox:faults/inject"
	if read {
		action = "sandbox:state/read"
	}
	return newError(http.StatusForbidden, "security_exception",
		"no permissions for ["+action+"] and User [name="+name+", backend_roles=[], requestedTenant=null]")
}

// state is the picture of the cluster now. c.mu is held.
func (c *simCluster) state() stateBody {
	now := c.clock.Now()
	health, _ := c.health(&healthRequest{level: "cluster", waitStatus: -1, waitActive: activeNone, waitEvents: -1}, now)
	s := stateBody{Health: health, Nodes: []nodeBody{}, Indices: []indexPicture{},
		Allocation: allocationBody{Slowdown: c.slowdown, DelayedTimeout: humanDuration(c.delay)}}
	for _, n := range c.nodes {
		s.Nodes = append(s.Nodes, nodeBody{Name: n.name, Zone: n.zone, Up: n.up})
	}
	nodeName := func(n int) string {
		if n < 0 {
			return ""
		}
		return c.nodes[n].name
	}
	for _, ix := range c.indices {
		ib, _ := ix.health(true)
		ip := indexPicture{Name: ix.Name, Status: ib.Status, Closed: ix.Closed, Hidden: ix.Hidden, Replicas: ix.Replicas}
		shards := ib.Shards.(map[string]shardBody)
		for n, sh := range ix.shards {
			sp := shardPicture{Shard: n, Status: shards[itoa(n)].Status}
			for _, cp := range sh.copies {
				pc := copyPicture{Primary: cp.primary, State: stateNames[cp.state], Reason: cp.reason,
					Fetch: cp.state == fetching, Delayed: cp.state == unassigned && cp.delayed.After(now)}
				if cp.state != unassigned {
					pc.Node = nodeName(cp.node)
				}
				if cp.state == relocating {
					pc.Target = nodeName(cp.target)
				}
				if cp.state == started || cp.state == relocating {
					pc.Reason = ""
				}
				sp.Copies = append(sp.Copies, pc)
			}
			ip.Shards = append(ip.Shards, sp)
		}
		s.Indices = append(s.Indices, ip)
	}
	return s
}
