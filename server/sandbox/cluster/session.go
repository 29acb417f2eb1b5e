package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"

	sandboxstate "loupe/server/sandbox/state"
)

// Keys of a session's stored changes (state.Store): the simulation's
// snapshot once the user changed the cluster, the upgrade state once they
// performed an upgrade. The seed is never stored.
const (
	simKey      = "sim"
	securityKey = "security"
)

// userState is one sandbox session's cluster. Until the user changes the
// cluster, sim is nil and they read the shared seeded cluster (reads cost
// nothing per user); their first change builds their own simulation from the
// configuration, which then runs on the handler's clock like the seed would.
type userState struct {
	mu      sync.Mutex   // serializes the user's changes; guards sim and upgrade
	sim     *simCluster  // nil: the seeded cluster
	upgrade upgradeState // the security configuration's upgrade state
}

// securityRecord is the stored upgrade state.
type securityRecord struct {
	Roles   bool `json:"roles,omitempty"`
	Mapping bool `json:"rolesmapping,omitempty"`
}

// build is the sandboxstate.API builder: a session's live state from its stored
// changes.
func (h *handler) build(_ string, entries []sandboxstate.Entry) (*userState, error) {
	u := &userState{}
	for _, e := range entries {
		switch e.Key {
		case simKey:
			c := h.newSim()
			if err := c.restore(e.Value); err != nil {
				return nil, err
			}
			c.schedule()
			u.sim = c
		case securityKey:
			var rec securityRecord
			if err := json.Unmarshal(e.Value, &rec); err != nil {
				return nil, fmt.Errorf("decoding the saved security configuration: %w", err)
			}
			u.upgrade = upgradeState{rolesDone: rec.Roles, mappingDone: rec.Mapping}
		}
	}
	return u, nil
}

// newSim is a settled simulation of the configured cluster.
func (h *handler) newSim() *simCluster {
	return newSimCluster(h.clock, h.timing, h.name, h.nodes, h.indices)
}

// user returns the live state of r's session, or writes the error that
// prevents it (a saved state that cannot be restored) and returns nil. A
// GET or HEAD reads: until the session's first change it gets the shared
// state, which it must not change, and takes no place in the registry.
func (h *handler) user(w http.ResponseWriter, r *http.Request) *userState {
	get := h.users.Get
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		get = h.users.Read
	}
	u, err := get(r.Context())
	if err != nil {
		writeError(w, r, stateError(err))
		return nil
	}
	return u
}

// cluster is the simulation the user reads: their own, or the seed.
func (h *handler) cluster(u *userState) *simCluster {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.sim != nil {
		return u.sim
	}
	return h.seed
}

// change applies op to the user's own simulation (built from the
// configuration on their first change) and stores the result before anyone
// sees it: when storing fails (a limit, the store), the simulation is put
// back as it was and the error answered. op runs with the simulation's lock
// held.
func (h *handler) change(ctx context.Context, u *userState, op func(c *simCluster) *osError) *osError {
	u.mu.Lock()
	defer u.mu.Unlock()
	c, own := u.sim, u.sim != nil
	if !own {
		c = h.newSim()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var before []byte
	if own {
		var err error
		if before, err = c.marshal(); err != nil {
			return stateError(err)
		}
	}
	if apiErr := op(c); apiErr != nil {
		return apiErr
	}
	after, err := c.marshal()
	if err == nil {
		err = h.users.Apply(ctx, sandboxstate.Put(simKey, after))
	}
	if err != nil {
		if own {
			_ = c.restore(before) // its own snapshot of a moment ago: it fits
		}
		return stateError(err)
	}
	c.changedLocked()
	if !own {
		u.sim = c
		h.wakeSeed() // a wait this user started on the seed now reads their cluster
	}
	return nil
}

// setUpgrade stores and applies the user's new upgrade state. u.mu is held.
func (h *handler) setUpgrade(ctx context.Context, u *userState, next upgradeState) *osError {
	rec, err := json.Marshal(securityRecord{Roles: next.rolesDone, Mapping: next.mappingDone})
	if err == nil {
		err = h.users.Apply(ctx, sandboxstate.Put(securityKey, rec))
	}
	if err != nil {
		return stateError(err)
	}
	u.upgrade = next
	return nil
}

// wakeSeed wakes the waits on the seeded cluster, so that each looks again
// at the cluster its user reads now.
func (h *handler) wakeSeed() {
	h.seed.mu.Lock()
	defer h.seed.mu.Unlock()
	close(h.seed.changed)
	h.seed.changed = make(chan struct{})
}

// stateError is the cluster's error envelope for a session that cannot be
// served or changed: a limit (429 when there are too many sessions, 507 when
// the user's changes are too large, 503 when the shared database is away, 409
// when another replica changed it at the same moment), a saved state that
// cannot be restored, or the store failing.
func stateError(err error) *osError {
	if le := sandboxstate.AsLimit(err); le != nil {
		typ := "rejected_execution_exception"
		switch {
		case errors.Is(err, sandboxstate.ErrSessionFull):
			typ = "sandbox_session_full_exception"
		case errors.Is(err, sandboxstate.ErrUnavailable):
			typ = "sandbox_state_unavailable_exception"
		case errors.Is(err, sandboxstate.ErrConflict):
			typ = "version_conflict_engine_exception" // OpenSearch's 409 for a concurrent change
		}
		return newError(le.Status, typ, le.Message)
	}
	return newError(http.StatusInternalServerError, "sandbox_state_exception",
		"Your cluster sandbox could not be loaded or saved ("+err.Error()+"). Reset it to start again "+
			"from the seeded cluster: POST /sandbox/cluster/_sandbox/reset, or Reset on the cluster's page in Loupe.")
}
