package cluster

import (
	"context"
	"net/http"
	"time"
)

// sharedWaitPoll is how often a waiting health call reads its user's state again when
// replicas share it: a change made on another replica is seen within this.
const sharedWaitPoll = 250 * time.Millisecond

// health answers GET /_cluster/health[/{index}]. When a wait condition does
// not hold, it waits: every change of the simulated cluster wakes it to
// check again (no polling), until the conditions hold (200), the timeout
// passes on the cluster's clock (408 with the body of that moment and
// timed_out true, as OpenSearch), or the client goes away (nothing is
// written). timeout=-1 waits without limit; timeout=0 answers at once. Each
// time it wakes it reads the cluster its user reads now: the seed until the
// user's first change, their own from then on. When replicas share the state
// (state.Registry.Shared), a change acknowledged by another replica wakes
// nothing here, so the wait also reads the user's state again every
// sharedWaitPoll: such a change is seen within that.
func (h *handler) health(w http.ResponseWriter, r *http.Request, path string, u *userState) {
	req, apiErr := parseHealth(path, r.URL.Query())
	if apiErr != nil {
		writeError(w, r, apiErr)
		return
	}
	if req.deprecatedMaster {
		w.Header().Add("Warning", masterTimeoutWarning)
	}
	var poll <-chan time.Time
	if h.users.Registry().Shared() {
		t := time.NewTicker(sharedWaitPoll)
		defer t.Stop()
		poll = t.C
	}
	expired := make(chan struct{})
	if req.timeout >= 0 {
		stop := h.clock.AfterFunc(req.timeout, func() { close(expired) })
		defer stop()
	}
	for {
		c := h.cluster(u)
		c.mu.Lock()
		body, met := c.health(req, c.clock.Now())
		changed := c.changed
		timedOut := req.timeout == 0
		select {
		case <-expired:
			timedOut = true
		default:
		}
		if !met && !timedOut {
			c.waiters++
			c.blocked++
		}
		c.mu.Unlock()
		switch {
		case met:
			writeJSON(w, r, http.StatusOK, body)
			return
		case timedOut:
			body.TimedOut = true
			writeJSON(w, r, http.StatusRequestTimeout, body)
			return
		}
		polled := false
		select {
		case <-changed:
		case <-expired:
		case <-poll:
			polled = true
		case <-r.Context().Done():
		}
		c.mu.Lock()
		c.waiters--
		c.mu.Unlock()
		if r.Context().Err() != nil {
			return
		}
		if polled || c == h.seed {
			// Read the user's state again: a wait that started on the seed holds the
			// shared state of sessions without changes, and the user's first change
			// (which wakes the seed) is in their own; with replicas, another one may
			// have changed it. When the database is away, the wait goes on with what
			// it has, and its timeout still ends it.
			if now, err := h.users.Read(r.Context()); err == nil {
				u = now
			}
		}
	}
}

// Waiters is how many health calls of h (a handler from New) are blocked on
// a wait condition right now, on the seeded cluster and on the cluster of
// the session of requests that carry none (state.Local, the session of a
// handler's own tests): a test starts a waiting call, then waits for this to
// count it before it changes the cluster. A call woken by a change leaves the
// count until it blocks again.
func Waiters(h http.Handler) int {
	hh, ok := h.(*handler)
	if !ok {
		return 0
	}
	n := 0
	for _, c := range hh.localSims() {
		c.mu.Lock()
		n += c.waiters
		c.mu.Unlock()
	}
	return n
}

// localSims are the seeded cluster and the Local session's own, if any.
func (h *handler) localSims() []*simCluster {
	out := []*simCluster{h.seed}
	if u, err := h.users.Get(context.Background()); err == nil {
		if c := h.cluster(u); c != h.seed {
			out = append(out, c)
		}
	}
	return out
}
