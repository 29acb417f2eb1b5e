package state

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// Versioned is a Store that several Loupe processes (replicas) share, such as pgstore on
// PostgreSQL. Each (session, api) has a generation: 0 while it holds no change, and a new
// number, never used before, at every Apply, Reset or Drop that touches it. The registry keeps
// the generation each live state was built at and checks it before serving that state (one
// cheap query), so that a change acknowledged by another process is seen by the very next
// request here; it applies a change only at the generation the caller's state was built at, so
// that no change is computed from a stale state.
type Versioned interface {
	Store
	// Generation returns the current generation of (session, api).
	Generation(session, api string) (int64, error)
	// LoadAt is Load, and the generation the entries are at (one consistent read).
	LoadAt(session, api string) ([]Entry, int64, error)
	// ApplyAt is Apply, done only when (session, api) is still at generation at: else nothing
	// is written and the error is ErrConflict. It returns the new generation.
	ApplyAt(session, api string, at int64, changes []Change) (int64, error)
}

// ErrUnavailable is wrapped by a Store's errors when its database cannot be reached or used
// right now (it went away, refuses connections, is shutting down). Nothing was written. The
// registry turns it into a *LimitError with status 503 that the sandboxes answer in their own
// error shape.
var ErrUnavailable = errors.New("the sandbox state database is unavailable")

// ErrConflict is Versioned.ApplyAt's error when another process changed (session, api) since the
// caller's state was read. The registry turns it into a *LimitError with status 409 after
// dropping the stale live state.
var ErrConflict = errors.New("the sandbox state changed meanwhile")

// storeError is err, from the Store, as the registry answers it for api ("" for every API):
// ErrUnavailable and ErrConflict as a *LimitError whose Message says what to do, anything else
// wrapped with what.
func storeError(api, what string, err error) error {
	switch {
	case errors.Is(err, ErrUnavailable):
		who := "The " + api + " sandbox cannot reach its state database right now, so it answers"
		if api == "" {
			who = "The sandboxes cannot reach their state database right now, so they answer"
		}
		return &LimitError{Status: http.StatusServiceUnavailable, kind: ErrUnavailable, cause: err, Message: who +
			" nothing rather than a stale or lost state: nothing was changed. Try again in a moment; if it " +
			"lasts, the operator checks that PostgreSQL runs at the address of server.database (LOUPE_DATABASE_URL)."}
	case errors.Is(err, ErrConflict):
		return &LimitError{Status: http.StatusConflict, kind: ErrConflict, cause: err, Message: fmt.Sprintf(
			"Your %s sandbox was changed by another request at the same moment (on another Loupe "+
				"replica), so this change was not saved: send it again; it will apply to the state "+
				"as it is now.", api)}
	}
	return fmt.Errorf("%s the %s sandbox state: %w", what, api, err)
}

// mayHaveChanges reports whether ctx's session, which is not live here, may hold stored
// changes in this API. With a Versioned store another process may have made them: its
// generation says (one query); else the registry's own record and a Load say.
func (a *API[T]) mayHaveChanges(ctx context.Context) (bool, error) {
	if a.reg.shared != nil {
		gen, err := a.reg.shared.Generation(SessionOf(ctx), a.name)
		if err != nil {
			return false, storeError(a.name, "loading", err)
		}
		return gen != 0, nil
	}
	if !a.reg.mayHaveStored(ctx) {
		return false, nil
	}
	entries, err := a.reg.store.Load(SessionOf(ctx), a.name)
	if err != nil {
		return false, storeError(a.name, "loading", err)
	}
	return len(entries) > 0, nil
}

// freshLocked drops what s holds of this API (its live state and sizes) when a Versioned
// store's generation moved past the one they were built at: another process changed the
// session, and the next load rebuilds from the store. One query, and only when s holds
// something. s.mu is held.
func (a *API[T]) freshLocked(s *session) error {
	if a.reg.shared == nil {
		return nil
	}
	if _, live := s.live[a.name]; !live && s.sizes[a.name] == nil {
		return nil
	}
	gen, err := a.reg.shared.Generation(s.id, a.name)
	if err != nil {
		return storeError(a.name, "loading", err)
	}
	if g, ok := s.gens[a.name]; !ok || g != gen {
		s.forget(a.name)
	}
	return nil
}

// loadLocked loads s's stored changes of this API, records their sizes and, with a Versioned
// store, the generation they are at. s.mu is held.
func (a *API[T]) loadLocked(s *session) ([]Entry, error) {
	var entries []Entry
	var gen int64
	var err error
	if a.reg.shared != nil {
		entries, gen, err = a.reg.shared.LoadAt(s.id, a.name)
	} else {
		entries, err = a.reg.store.Load(s.id, a.name)
	}
	if err != nil {
		return nil, storeError(a.name, "loading", err)
	}
	s.setSizes(a.name, entries)
	if a.reg.shared != nil {
		s.gens[a.name] = gen
	}
	return entries, nil
}

// store writes changes durably: with a Versioned store only at the generation s's state of
// this API was built at, recording the new one; on a conflict s forgets that state, so the
// next request rebuilds it from the store. s.mu is held.
func (a *API[T]) store(s *session, changes []Change) error {
	if a.reg.shared == nil {
		if err := a.reg.store.Apply(s.id, a.name, changes); err != nil {
			return storeError(a.name, "saving", err)
		}
		return nil
	}
	gen, err := a.reg.shared.ApplyAt(s.id, a.name, s.gens[a.name], changes)
	if err != nil {
		if errors.Is(err, ErrConflict) {
			s.forget(a.name)
		}
		return storeError(a.name, "saving", err)
	}
	s.gens[a.name] = gen
	return nil
}

// forget drops s's live state, sizes and generation of api. s.mu is held.
func (s *session) forget(api string) {
	delete(s.live, api)
	for _, n := range s.sizes[api] {
		s.bytes -= int64(n)
	}
	delete(s.sizes, api)
	delete(s.gens, api)
}

// Shared reports whether the registry's store is shared with other processes (a Versioned
// store): a sandbox that waits for its state to change (a long poll) must then also look again
// now and then, since a change acknowledged by another replica wakes nothing in this one.
func (r *Registry) Shared() bool { return r.shared != nil }
