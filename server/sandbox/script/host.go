package script

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"loupe/server/sandbox/script/engine"
)

// runHost is the store's side of one run (engine.Host): the user's documents and the locks
// the user's runs share. Every lock the run still holds is released when it ends (done).
type runHost struct {
	s    *store
	ctx  context.Context
	held map[string]bool
}

// heldLock is a LockService lock taken by a run; free is closed when it is released.
type heldLock struct {
	owner *runHost
	free  chan struct{}
}

// newRunHost returns the host of a run of s that ends with ctx.
func newRunHost(ctx context.Context, s *store) *runHost {
	return &runHost{s: s, ctx: ctx, held: map[string]bool{}}
}

// Load implements engine.Host.
func (h *runHost) Load(key string) (json.RawMessage, error) {
	if !engine.ValidKey(key) {
		return nil, fmt.Errorf("the document key %q is not one of the sandbox's", key)
	}
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	return h.s.docs[key], nil
}

// Commit implements engine.Host.
func (h *runHost) Commit(changes []engine.Change) error { return h.s.commitDocs(changes) }

// Lock implements engine.Host: it waits at most wait for the lock of scope, held by another
// run of the user's, to be released.
func (h *runHost) Lock(scope string, wait time.Duration) (bool, error) {
	if scope == "" || len(scope) > engine.MaxKey {
		return false, errors.New("invalid lock")
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		h.s.mu.Lock()
		l := h.s.locks[scope]
		if l == nil {
			h.s.locks[scope] = &heldLock{owner: h, free: make(chan struct{})}
			h.held[scope] = true
			h.s.mu.Unlock()
			return true, nil
		}
		if l.owner == h {
			h.s.mu.Unlock()
			return true, nil
		}
		free := l.free
		h.s.mu.Unlock()
		select {
		case <-free:
		case <-timer.C:
			return false, nil
		case <-h.ctx.Done():
			return false, h.ctx.Err()
		}
	}
}

// Unlock implements engine.Host.
func (h *runHost) Unlock(scope string) error {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	h.unlockLocked(scope)
	return nil
}

// unlockLocked releases the lock of scope if the run holds it; s.mu is held.
func (h *runHost) unlockLocked(scope string) {
	if l := h.s.locks[scope]; l != nil && l.owner == h {
		delete(h.s.locks, scope)
		close(l.free)
	}
	delete(h.held, scope)
}

// Log implements engine.Host: the runner hands the lines back with the result.
func (h *runHost) Log(string) {}

// done releases the locks the run still holds.
func (h *runHost) done() {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	for scope := range h.held {
		h.unlockLocked(scope)
	}
}
