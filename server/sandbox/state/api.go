package state

import (
	"context"
	"fmt"
	"sync"
)

// API is one sandbox's view of a Registry: the live state T of each session, built on first use
// from the seed and the session's stored changes.
type API[T any] struct {
	reg   *Registry
	name  string
	build func(session string, changes []Entry) (T, error)

	shareOnce sync.Once
	share     func() (T, error) // nil: Read is Get
	shared    T
	shareErr  error
}

// NewAPI returns the view of reg for the API named name (its slug: the Store's api key).
// build makes a session's live state: the seed with changes (sorted by key) replayed onto it.
// It is called once per session until the session is evicted or Reset, and must not call back
// into the registry.
func NewAPI[T any](reg *Registry, name string, build func(session string, changes []Entry) (T, error)) *API[T] {
	return &API[T]{reg: reg, name: name, build: build}
}

// Share makes Read answer sessions that have no stored changes with one live state that
// seed builds once, shared by all of them: copy on write, a session that only reads holds no
// copy of the seed. The shared state must never change: writes go through Get, which gives
// the session its own. Call Share before the API serves; it returns a.
func (a *API[T]) Share(seed func() (T, error)) *API[T] {
	a.share = seed
	return a
}

// Read returns the state ctx's session reads: its own live state when it has one or has
// stored changes (then built as Get does), else the shared seed (Share), keeping nothing for
// the session: a client that only reads holds no place in the registry. Without Share it is
// Get.
func (a *API[T]) Read(ctx context.Context) (T, error) {
	if a.share == nil {
		return a.Get(ctx)
	}
	var zero T
	s := a.reg.lookup(ctx)
	if s == nil {
		if has, err := a.mayHaveChanges(ctx); err != nil || !has {
			if err != nil {
				return zero, err
			}
			return a.seed()
		}
		s = a.reg.session(ctx) // the session has changes: it is live again
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := a.freshLocked(s); err != nil {
		return zero, err
	}
	if v, ok := s.live[a.name]; ok {
		return v.(T), nil
	}
	var entries []Entry
	var err error
	loaded := false
	if s.sizes[a.name] == nil {
		if entries, err = a.loadLocked(s); err != nil {
			return zero, err
		}
		loaded = true
	}
	if len(s.sizes[a.name]) > 0 { // the session has changes: its own state
		if !loaded {
			if entries, err = a.loadLocked(s); err != nil {
				return zero, err
			}
		}
		return a.buildLocked(s, entries)
	}
	return a.seed()
}

// seed returns the shared seed state, built on first use.
func (a *API[T]) seed() (T, error) {
	a.shareOnce.Do(func() { a.shared, a.shareErr = a.share() })
	if a.shareErr != nil {
		var zero T
		return zero, fmt.Errorf("building the %s sandbox seed: %w", a.name, a.shareErr)
	}
	return a.shared, nil
}

// Name returns the API's name.
func (a *API[T]) Name() string { return a.name }

// Registry returns the registry the API lives in.
func (a *API[T]) Registry() *Registry { return a.reg }

// Get returns the live state of ctx's session (SessionOf), building it when the session has
// none: call it for a request that may change the state (Read for one that only reads). The
// error is the Store's or build's.
func (a *API[T]) Get(ctx context.Context) (T, error) {
	var zero T
	s := a.reg.session(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := a.freshLocked(s); err != nil {
		return zero, err
	}
	if v, ok := s.live[a.name]; ok {
		return v.(T), nil
	}
	entries, err := a.loadLocked(s)
	if err != nil {
		return zero, err
	}
	return a.buildLocked(s, entries)
}

// buildLocked builds and keeps the session's own live state from its stored changes; s.mu is held.
func (a *API[T]) buildLocked(s *session, entries []Entry) (T, error) {
	v, err := a.build(s.id, entries)
	if err != nil {
		var zero T
		return zero, fmt.Errorf("rebuilding the %s sandbox state: %w", a.name, err)
	}
	s.setSizes(a.name, entries)
	s.live[a.name] = v
	return v, nil
}

// Apply stores changes of ctx's session durably (Store.Apply), after checking them against
// Limits.MaxBytes: a change that grows the session past it is refused with a *LimitError, and
// nothing is written. Call it while holding the live state's own lock, before changing the
// live state, and change the live state only when it returns nil: then what a client was told
// is exactly what the store holds.
func (a *API[T]) Apply(ctx context.Context, changes ...Change) error {
	return a.apply(ctx, nil, changes)
}

// ApplyTo is Apply for changes the caller is about to make to v, the live state Get gave it.
// When a Reset or an eviction replaced v meanwhile (another request of the session built a new
// live state from the store before these changes reached it), the new one is dropped, so the
// next Get or Read rebuilds it with them: the live state never misses a stored change. T must
// be a comparable type (a pointer, as in every sandbox).
func (a *API[T]) ApplyTo(ctx context.Context, v T, changes ...Change) error {
	return a.apply(ctx, &v, changes)
}

// apply stores changes; v, when not nil, is the live state they are for.
func (a *API[T]) apply(ctx context.Context, v *T, changes []Change) error {
	if len(changes) == 0 {
		return nil
	}
	s := a.reg.session(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	if a.reg.shared != nil && v != nil {
		if live, ok := s.live[a.name]; !ok || live != any(*v) {
			// v was dropped since Get gave it (a Reset, or another replica's change): the
			// changes were computed from a state that is no longer the stored one.
			s.forget(a.name)
			return storeError(a.name, "saving", ErrConflict)
		}
	}
	if s.sizes[a.name] == nil {
		if _, err := a.loadLocked(s); err != nil {
			return err
		}
	}
	sizes := s.sizes[a.name]
	next := map[string]int{}
	bytes := s.bytes
	for _, c := range changes {
		old, ok := next[c.Key]
		if !ok {
			old = sizes[c.Key]
		}
		n := 0
		if c.Value != nil {
			n = len(c.Key) + len(c.Value)
		}
		next[c.Key] = n
		bytes += int64(n - old)
	}
	if bytes > s.bytes && bytes > a.reg.limits.MaxBytes {
		return full(a.name, a.reg.limits.MaxBytes)
	}
	first := s.gens[a.name] == 0 // with a Versioned store: the API held no change before
	if err := a.store(s, changes); err != nil {
		return err
	}
	for k, n := range next {
		if n == 0 {
			delete(sizes, k)
		} else {
			sizes[k] = n
		}
	}
	s.bytes = bytes
	if live, ok := s.live[a.name]; ok && v != nil && live != any(*v) {
		delete(s.live, a.name) // built without these changes: rebuild on next use
	}
	a.reg.changed(ctx, s, first)
	return nil
}

// Reset puts ctx's session back to the seed in this API (Registry.Reset).
func (a *API[T]) Reset(ctx context.Context) error { return a.reg.Reset(ctx, a.name) }

// setSizes records the sizes of an API's stored changes; s.mu is held.
func (s *session) setSizes(api string, entries []Entry) {
	for _, n := range s.sizes[api] {
		s.bytes -= int64(n)
	}
	m := make(map[string]int, len(entries))
	for _, e := range entries {
		n := len(e.Key) + len(e.Value)
		m[e.Key] = n
		s.bytes += int64(n)
	}
	s.sizes[api] = m
}
