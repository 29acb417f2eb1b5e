package script

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"loupe/server/sandbox/state"
)

// Each sandbox session (server/sandbox/state) has its own store: the seed with the session's
// stored changes replayed (persist.go). A session that has changed nothing reads one shared
// seeded store; its first change gives it its own.

// api is the name of the script sandbox's data in the state store.
const api = "script"

// newSessions returns the handler's view of reg, which builds a session's store with fresh.
func newSessions(reg *state.Registry, fresh func() *store) *state.API[*store] {
	var sessions *state.API[*store]
	sessions = state.NewAPI(reg, api, func(session string, changes []state.Entry) (*store, error) {
		st := fresh()
		if session != state.Local { // the same ID in two sessions would name two projects
			st.idSalt = "-" + session
		}
		if err := st.replay(changes); err != nil {
			return nil, err
		}
		ctx := state.WithSession(context.Background(), session)
		st.save = func(changes ...state.Change) *apiError {
			if err := sessions.ApplyTo(ctx, st, changes...); err != nil {
				return stateError(err)
			}
			return nil
		}
		return st, nil
	}).Share(func() (*store, error) { return fresh(), nil })
	return sessions
}

// storeFor returns the store r's session uses: its own for a method that may change state,
// else the one it reads (the shared seed while it has changed nothing).
func (h *handler) storeFor(r *http.Request) (*store, *apiError) {
	get := h.sessions.Read
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		get = h.sessions.Get
	}
	st, err := get(h.grantSession(r))
	if err != nil {
		return nil, stateError(err)
	}
	return st, nil
}

// persist stores changes durably before the store changes: the shared seed has no save, and
// an operation that reaches it with a change is a bug, answered as one.
func (s *store) persist(changes ...state.Change) *apiError {
	if s.save == nil {
		return &apiError{Error: errorStatus{Code: http.StatusInternalServerError, Status: "INTERNAL",
			Message: "The script sandbox tried to change the shared seed; please report it."}}
	}
	return s.save(changes...)
}

// stateError is the Google error of a state store failure: a full registry or session answers
// its status with RESOURCE_EXHAUSTED, a shared database that is away 503 UNAVAILABLE, a
// change another replica made at the same moment 409 ABORTED, each saying what to do;
// anything else is a 500.
func stateError(err error) *apiError {
	if le := state.AsLimit(err); le != nil {
		status := "RESOURCE_EXHAUSTED"
		switch {
		case errors.Is(err, state.ErrUnavailable):
			status = "UNAVAILABLE"
		case errors.Is(err, state.ErrConflict):
			status = "ABORTED" // Google's word for a concurrency conflict: retry
		}
		return &apiError{Error: errorStatus{Code: le.Status, Status: status, Message: le.Message}}
	}
	return &apiError{Error: errorStatus{Code: http.StatusInternalServerError, Status: "INTERNAL",
		Message: "The script sandbox could not keep its state: " + err.Error()}}
}

// grantSession is r's context, its session named by the OAuth grant when r is a direct call
// (a credential session) with an access token of the sandbox's authorization server: the token
// changes at each refresh, the grant (its refresh token) does not, so a client's projects
// outlive its access tokens.
func (h *handler) grantSession(r *http.Request) context.Context {
	ctx := r.Context()
	if !state.IsCredentialSession(state.SessionOf(ctx)) {
		return ctx
	}
	tok := r.URL.Query().Get("access_token")
	if scheme, t, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
		tok = strings.TrimSpace(t)
	}
	if rt := h.as.refreshOf(tok); rt != "" {
		return state.WithSession(ctx, state.CredentialSession("script-grant\x00"+rt))
	}
	return ctx
}
