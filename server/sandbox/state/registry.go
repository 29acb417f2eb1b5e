package state

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"loupe/server/internal/bounded"
	"loupe/server/internal/clientip"
)

// Options configures a Registry.
type Options struct {
	// Limits bound the live sessions; zero fields mean the defaults.
	Limits Limits
	// DropEvicted forgets an evicted session's stored changes too. Set it with a Store that
	// holds them in memory (Memory), where nothing else would free them; leave it false with a
	// durable store, whose changes come back on the session's next request (up to
	// Limits.MaxStored anonymous sessions keep them).
	DropEvicted bool
	// Now is the clock of idle eviction and of claims; nil means time.Now.
	Now func() time.Time
	// ClaimEvery is, with a SharedBounds store, how often this process claims again a session
	// that keeps changing (see SharedBounds). Zero means DefaultClaimEvery.
	ClaimEvery time.Duration
}

// Registry holds the live sessions over a Store, shared by every API (NewAPI) so that the
// limits count a session once. It is safe for concurrent use. It starts no goroutine: idle
// sessions are evicted as requests come (at most every Idle/8).
//
// A session becomes live on its first change (Get, Apply), never by reading: Read answers a
// session that has no live state and no stored changes with the shared seed and keeps nothing
// for it. Past the limits the least recently used anonymous session is evicted, never a
// signed-in user's (UserSession) for an anonymous one (see server/internal/bounded).
//
// The live table is this process's own (a cache, bounded in memory). Which anonymous sessions
// keep stored changes (Limits.MaxStored) is this process's own table too, unless the store
// is SharedBounds (claims.go): then the store bounds them across every process sharing it.
type Registry struct {
	store  Store
	shared Versioned    // store, when other processes share it; nil otherwise
	bounds SharedBounds // store, when it bounds the stored sessions across processes; nil otherwise
	opts   Options
	limits Limits

	mu        sync.Mutex
	live      *bounded.Table[string, *session]
	stored    *bounded.Table[string, struct{}]  // sessions that may have stored changes; nil with DropEvicted or bounds
	claimed   *bounded.Table[string, time.Time] // with bounds: when this process last claimed a session
	lastSweep time.Time
}

// session is the live state of one session, every API.
type session struct {
	id string

	mu    sync.Mutex
	live  map[string]any            // api → the API's live state
	sizes map[string]map[string]int // api → key → bytes of the stored change
	bytes int64                     // the sum of sizes
	gens  map[string]int64          // api → the generation live and sizes are at (Versioned store)
}

// Lister is a Store that can list the sessions holding changes; a durable Store implements it
// so that a restarted registry bounds the anonymous sessions it finds (Limits.MaxStored).
type Lister interface {
	// ListSessions returns every session that holds stored changes, in no particular order.
	ListSessions() ([]string, error)
}

// NewRegistry returns a registry over store.
func NewRegistry(store Store, opts Options) *Registry {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.ClaimEvery <= 0 {
		opts.ClaimEvery = DefaultClaimEvery
	}
	r := &Registry{store: store, opts: opts, limits: opts.Limits.withDefaults()}
	r.shared, _ = store.(Versioned)
	if !opts.DropEvicted {
		r.bounds, _ = store.(SharedBounds)
	}
	r.live = bounded.New(bounded.Options[string, *session]{
		Max: r.limits.MaxSessions, PerClient: r.limits.MaxSessionsPerClient, MaxProtected: r.limits.MaxSessions,
		MaxWeight: r.limits.MaxTotalBytes, OnEvict: r.evictedLive, Now: opts.Now,
	})
	switch {
	case r.bounds != nil: // the store bounds the stored sessions of every process
		r.claimed = bounded.New(bounded.Options[string, time.Time]{Max: r.limits.MaxStored, Now: opts.Now})
	case !opts.DropEvicted:
		r.stored = bounded.New(bounded.Options[string, struct{}]{
			Max: r.limits.MaxStored, PerClient: r.limits.storedPerClient(), MaxProtected: math.MaxInt,
			OnEvict: r.evictedStored, Now: opts.Now,
		})
		if l, ok := store.(Lister); ok {
			if ids, err := l.ListSessions(); err == nil {
				for _, id := range ids {
					r.stored.Put(id, struct{}{}, "stored:"+id, isProtected(id))
				}
			}
		}
	}
	return r
}

// isProtected reports whether session belongs to a signed-in user (or is the single local
// one): such a session is never evicted for an anonymous one.
func isProtected(session string) bool {
	return strings.HasPrefix(session, "user:") || session == Local
}

// clientOf is who owns ctx's session for the per-client bound: the client address the server
// named (clientip), a signed-in user's own session, or the session itself when no address is
// known (a sandbox's own tests).
func clientOf(ctx context.Context, id string) string {
	if c := clientip.Of(ctx); c != "" && !isProtected(id) {
		return c
	}
	return id
}

// evictedLive is the live table's OnEvict (r.mu held): an evicted session's changes go with it
// when DropEvicted.
func (r *Registry) evictedLive(id string, _ *session) {
	if r.opts.DropEvicted {
		_ = r.store.Drop(id) // a Memory store fails only when closed
	}
}

// evictedStored is the stored table's OnEvict (r.mu held): an anonymous session past
// Limits.MaxStored loses its stored changes and its live state.
func (r *Registry) evictedStored(id string, _ struct{}) {
	r.live.Delete(id)
	_ = r.store.Drop(id)
}

// Store returns the registry's Store.
func (r *Registry) Store() Store { return r.store }

// Limits returns the limits in force, defaults filled in.
func (r *Registry) Limits() Limits { return r.limits }

// Len returns how many sessions are live.
func (r *Registry) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.live.Len()
}

// Stats is what a registry holds, for tests and logs.
type Stats struct {
	// Live is the live table; Stored the table of sessions that may have stored changes
	// (zero with DropEvicted).
	Live, Stored bounded.Stats
}

// Stats returns what the registry holds.
func (r *Registry) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := Stats{Live: r.live.Stats()}
	if r.stored != nil {
		st.Stored = r.stored.Stats()
	}
	return st
}

// Bytes returns the bytes of stored changes of the live session, or 0 when it is not live.
func (r *Registry) Bytes(sessionID string) int64 {
	r.mu.Lock()
	s, _ := r.live.Peek(sessionID)
	r.mu.Unlock()
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes
}

// lookup returns ctx's live session, marked used, or nil when it has none.
func (r *Registry) lookup(ctx context.Context) *session {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.maybeSweepLocked()
	s, _ := r.live.Get(SessionOf(ctx))
	return s
}

// mayHaveStored reports whether ctx's session may hold stored changes while it is not live.
func (r *Registry) mayHaveStored(ctx context.Context) bool {
	if r.stored == nil {
		return false // DropEvicted: a session that is not live has none
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.stored.Peek(SessionOf(ctx))
	return ok
}

// session returns the live session of ctx, making it live when it is not, and marks it used.
func (r *Registry) session(ctx context.Context) *session {
	id := SessionOf(ctx)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.maybeSweepLocked()
	if s, ok := r.live.Get(id); ok {
		return s
	}
	s := &session{id: id, live: map[string]any{}, sizes: map[string]map[string]int{}, gens: map[string]int64{}}
	r.live.Put(id, s, clientOf(ctx, id), isProtected(id))
	return s
}

// changed notes that s stored changes (s.mu held by the caller): its weight in the live table,
// and, with a durable store, that it holds stored changes (with SharedBounds, a claim when
// due: first says the change was an API's first). A session evicted meanwhile (by the
// bounds, under another request) loses the change with DropEvicted, which keeps no changes of
// a session that is not live; one live again as another object rebuilds from the store.
func (r *Registry) changed(ctx context.Context, s *session, first bool) {
	r.mu.Lock()
	cur, ok := r.live.Peek(s.id)
	switch {
	case !ok && r.opts.DropEvicted:
		_ = r.store.Drop(s.id)
		r.mu.Unlock()
		return
	case ok && cur == s:
		r.live.SetWeight(s.id, s.bytes)
	}
	if r.stored != nil && !r.stored.Touch(s.id) {
		r.stored.Put(s.id, struct{}{}, clientOf(ctx, s.id), isProtected(s.id))
	}
	claim := r.bounds != nil && r.claimLocked(s.id, clientOf(ctx, s.id), first)
	r.mu.Unlock()
	if claim {
		r.claim(ctx, s.id)
	}
	if ok && cur != s { // built before this change reached the store
		cur.mu.Lock()
		clear(cur.live)
		clear(cur.sizes)
		clear(cur.gens)
		cur.bytes = 0
		cur.mu.Unlock()
	}
}

// maybeSweepLocked evicts the idle sessions at most every Idle/8; r.mu is held.
func (r *Registry) maybeSweepLocked() {
	if now := r.opts.Now(); now.Sub(r.lastSweep) >= r.limits.Idle/8 {
		r.lastSweep = now
		r.live.Expire(r.limits.Idle)
	}
}

// Sweep evicts the sessions idle for longer than Limits.Idle now, and returns how many.
func (r *Registry) Sweep() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lastSweep = r.opts.Now()
	return r.live.Expire(r.limits.Idle)
}

// Reset puts the caller's session back to the seed in api, or in every API when api is "":
// its stored changes are forgotten and its live state rebuilt on the next request. Other
// sessions are untouched.
func (r *Registry) Reset(ctx context.Context, api string) error {
	id := SessionOf(ctx)
	r.mu.Lock()
	s, _ := r.live.Peek(id)
	if api == "" {
		r.live.Delete(id)
		if r.stored != nil {
			r.stored.Delete(id)
		}
		if r.claimed != nil {
			r.claimed.Delete(id)
		}
	}
	r.mu.Unlock()
	if api == "" {
		if err := r.store.Drop(id); err != nil {
			if errors.Is(err, ErrUnavailable) {
				return storeError("", "resetting", err)
			}
			return fmt.Errorf("resetting the sandbox session: %w", err)
		}
		return nil
	}
	if s != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	if err := r.store.Reset(id, api); err != nil {
		if errors.Is(err, ErrUnavailable) {
			return storeError(api, "resetting", err)
		}
		return fmt.Errorf("resetting the %s sandbox: %w", api, err)
	}
	if s != nil {
		delete(s.live, api)
		for _, n := range s.sizes[api] {
			s.bytes -= int64(n)
		}
		delete(s.sizes, api)
		delete(s.gens, api)
	}
	return nil
}
