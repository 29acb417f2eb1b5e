// Package script is the built-in sandbox of the script API (content/openapi/script.yaml), whose
// real counterpart is the Google Apps Script API v1. It serves the 16 documented operations on
// the real paths (/v1/projects/…, /v1/processes…, /v1/scripts/{id}:run) over a store per sandbox
// session (sessions.go, kept by server/sandbox/state) that starts with the documented "Invoice
// mailer" project, so that every documented example is exactly what the sandbox answers for the
// corresponding request.
//
// It is mounted at /sandbox/script with the prefix stripped. The credential is the sandbox key,
// sent as "Authorization: Bearer <key>" (as the proxy does) or as the key or access_token query
// parameter (the document's apiKey scheme), or an OAuth 2.0 access token from the sandbox's own
// authorization server (oauth_*.go), which must carry one of the operation's scopes. Errors use
// the standard Google JSON error body.
//
// scripts.run executes the project's code in goja, a JavaScript engine in Go, with the Apps
// Script services real scripts call (package engine), each run in a worker process with OS
// limits (package worker), within a time limit, a memory limit, output limits and bounds on
// simultaneous runs (slots.go); a deployed web app answers at its URL (webapp.go).
package script

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"loupe/server/sandbox"
	"loupe/server/sandbox/state"
)

// Options configures New. The zero value serves the seeded project with sandbox.DefaultKey and
// the real clock.
type Options struct {
	// Key is the credential every request must carry; default sandbox.DefaultKey.
	Key string
	// Now is the clock used for every time the sandbox stamps (creation, update, run); default
	// time.Now. Tests fix it to reproduce documented examples.
	Now func() time.Time
	// NewID, when set, makes new IDs: kind is "project" or "deployment". By default IDs are
	// derived deterministically from a per-session counter and the session. A generated ID
	// that is already in use is refused with ALREADY_EXISTS.
	NewID func(kind string) string
	// NoSeed starts with an empty store (no project, process or metric) instead of the seed.
	NoSeed bool
	// RunTimeout is how long a run may take before it is interrupted and recorded TIMED_OUT;
	// default 30 s.
	RunTimeout time.Duration
	// RunMemory is how many bytes one run may use, its worker process's memory limit, before
	// the run is stopped with "Exceeded memory limit"; default 256 MiB. Runs with the same limit
	// share the process's pool of workers (package worker).
	RunMemory uint64
	// MaxRuns is how many runs may go on at once; one more is refused with 429
	// RESOURCE_EXHAUSTED. Default 4.
	MaxRuns int
	// MaxRunsPerUser is how many of them one user (sandbox session) may have going on at once;
	// default half of MaxRuns, rounded up, and never all of them.
	MaxRunsPerUser int
	// SharedSlots, when set, holds the per-user bound across replicas (its PerUser replaces
	// MaxRunsPerUser); MaxRuns stays this process's own bound. Nil means the bound is this
	// process's.
	SharedSlots SharedSlots
	// MaxVersionBytes bounds the distinct file content all versions of all projects of one
	// session hold (identical sources are stored once); a version past it is refused with 429
	// RESOURCE_EXHAUSTED. Default 32 MiB.
	MaxVersionBytes int
	// State keeps each sandbox session's changes (server/sandbox/state). Nil means its own
	// registry over an in-memory store with the default limits.
	State *state.Registry
	// OAuthClients are the clients the sandbox's OAuth 2.0 authorization server knows. Nil
	// means one: SandboxClientID with SandboxClientSecret.
	OAuthClients []OAuthClient
	// AccessTokenTTL is how long an access token the authorization server issues lives (by
	// Now); default 1 h.
	AccessTokenTTL time.Duration
	// SealKey seals the consent forms of the authorization server (32 bytes, derived from the
	// server's secret key), so that a form opened on one replica or before a restart is
	// answered on another or after it. Nil means a key made at start.
	SealKey []byte
	// Tokens keeps the grants and access tokens the authorization server issues, so that they
	// stay valid after a restart; each is sealed with TokenKey. One that is also a
	// SharedTokenStore (server.database) is read at each use, so that replicas accept each
	// other's tokens and revocations at once; one that is a BoundedTokenStore also holds the
	// tables' bounds and the answered consents across the replicas. Nil means in memory only.
	Tokens TokenStore
	// TokenKey encrypts what Tokens keeps (AES-256-GCM, 32 bytes, derived from the server's
	// secret key). Required with Tokens.
	TokenKey []byte
	// Logger receives what goes wrong with Tokens, never a token. Nil means slog.Default().
	Logger *slog.Logger
}

// Defaults of Options.
const (
	defaultRunTimeout      = 30 * time.Second
	defaultRunMemory       = 256 << 20
	defaultMaxRuns         = 4
	defaultMaxVersionBytes = 32 << 20
)

// handler serves the API over the store of each session, with its authorization server.
type handler struct {
	key      string
	sessions *state.API[*store]
	as       *authServer
	frames   *frameStore // the HTML of web app answers (webapp_page.go)
}

// New returns the sandbox handler, with a store per sandbox session (sessions.go).
func New(opts Options) http.Handler {
	key := opts.Key
	if key == "" {
		key = sandbox.DefaultKey
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	reg := opts.State
	if reg == nil {
		reg = state.NewRegistry(state.NewMemory(), state.Options{DropEvicted: true})
	}
	slots := newRunSlots(opts.MaxRuns, opts.MaxRunsPerUser) // shared: the bounds are the server's
	slots.shared = opts.SharedSlots
	run := newRunner(or(opts.RunMemory, defaultRunMemory), slots.max)
	fresh := func() *store {
		st := newStore(now, opts.NewID)
		st.limits.Timeout = or(opts.RunTimeout, defaultRunTimeout)
		st.slots, st.runner = slots, run
		st.maxVersionBytes = or(opts.MaxVersionBytes, defaultMaxVersionBytes)
		if !opts.NoSeed {
			seed(st)
		}
		return st
	}
	return &handler{key: key, sessions: newSessions(reg, fresh), as: newAuthServer(opts, now),
		frames: newFrameStore(10*time.Minute, 256, 64<<20)}
}

// ServeHTTP routes the request, checks the credential, then runs the operation.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.as.serve(w, r) {
		return
	}
	if strings.HasPrefix(r.URL.Path, "/macros/") { // a web app: its page, no API key
		h.serveWebApp(w, r)
		return
	}
	ep := route(r.Method, r.URL.Path)
	if ep.run == nil {
		writeError(w, errMethodNotFound(r.Method, r.URL.Path))
		return
	}
	if e := h.checkCredential(w, r, ep.id); e != nil {
		writeError(w, e)
		return
	}
	st, e := h.storeFor(r)
	if e != nil {
		writeError(w, e)
		return
	}
	v, e := ep.run(st, r)
	if e != nil {
		writeError(w, e)
		return
	}
	if wh, ok := v.(withHeader); ok {
		for k, vs := range wh.header {
			w.Header()[k] = vs
		}
		v = wh.body
	}
	writeJSON(w, http.StatusOK, v)
}

// withHeader is an operation's answer with headers of its own.
type withHeader struct {
	body   any
	header http.Header
}

// or is v, or def when v is zero.
func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// operation is one API method: it returns the answer's body or an API error.
type operation func(st *store, r *http.Request) (any, *apiError)

// endpoint is one API method: its operationId in script.yaml and what it does.
type endpoint struct {
	id  string
	run operation
}

// route finds the endpoint for method and path; its run is nil when there is none.
func route(method, path string) endpoint {
	rest, ok := strings.CutPrefix(path, "/v1/")
	if !ok {
		return endpoint{}
	}
	seg := strings.Split(rest, "/")
	for _, s := range seg {
		if s == "" {
			return endpoint{}
		}
	}
	pick := func(ops map[string]endpoint) endpoint { return ops[method] }
	switch {
	case len(seg) == 1 && seg[0] == "projects":
		return pick(map[string]endpoint{http.MethodPost: {"projects.create", createProject}})
	case len(seg) == 1 && seg[0] == "processes":
		return pick(map[string]endpoint{http.MethodGet: {"processes.list", listUserProcesses}})
	case len(seg) == 1 && seg[0] == "processes:listScriptProcesses":
		return pick(map[string]endpoint{http.MethodGet: {"processes.listScriptProcesses", listScriptProcesses}})
	case len(seg) == 2 && seg[0] == "scripts" && strings.HasSuffix(seg[1], ":run"):
		id := strings.TrimSuffix(seg[1], ":run")
		return pick(map[string]endpoint{http.MethodPost: {"scripts.run", withID(id, runScript)}})
	case len(seg) < 2 || seg[0] != "projects":
		return endpoint{}
	}
	id := seg[1]
	switch {
	case len(seg) == 2:
		return pick(map[string]endpoint{http.MethodGet: {"projects.get", withID(id, getProject)}})
	case len(seg) == 3 && seg[2] == "content":
		return pick(map[string]endpoint{
			http.MethodGet: {"projects.getContent", withID(id, getContent)},
			http.MethodPut: {"projects.updateContent", withID(id, updateContent)},
		})
	case len(seg) == 3 && seg[2] == "metrics":
		return pick(map[string]endpoint{http.MethodGet: {"projects.getMetrics", withID(id, getMetrics)}})
	case len(seg) == 3 && seg[2] == "versions":
		return pick(map[string]endpoint{
			http.MethodGet:  {"projects.versions.list", withID(id, listVersions)},
			http.MethodPost: {"projects.versions.create", withID(id, createVersion)},
		})
	case len(seg) == 4 && seg[2] == "versions":
		return pick(map[string]endpoint{http.MethodGet: {"projects.versions.get", withIDs(id, seg[3], getVersion)}})
	case len(seg) == 3 && seg[2] == "deployments":
		return pick(map[string]endpoint{
			http.MethodGet:  {"projects.deployments.list", withID(id, listDeployments)},
			http.MethodPost: {"projects.deployments.create", withID(id, createDeployment)},
		})
	case len(seg) == 4 && seg[2] == "deployments":
		return pick(map[string]endpoint{
			http.MethodGet:    {"projects.deployments.get", withIDs(id, seg[3], getDeployment)},
			http.MethodPut:    {"projects.deployments.update", withIDs(id, seg[3], updateDeployment)},
			http.MethodDelete: {"projects.deployments.delete", withIDs(id, seg[3], deleteDeployment)},
		})
	}
	return endpoint{}
}

// withID binds the path's ID to an operation.
func withID(id string, f func(*store, *http.Request, string) (any, *apiError)) operation {
	return func(st *store, r *http.Request) (any, *apiError) { return f(st, r, id) }
}

// withIDs binds the path's two IDs to an operation.
func withIDs(id, sub string, f func(*store, *http.Request, string, string) (any, *apiError)) operation {
	return func(st *store, r *http.Request) (any, *apiError) { return f(st, r, id, sub) }
}
