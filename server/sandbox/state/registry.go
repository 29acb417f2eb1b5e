package state

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Options configures a Registry.
type Options struct {
	// Limits bound the live sessions; zero fields mean the defaults.
	Limits Limits
	// DropEvicted forgets an evicted session's stored changes too. Set it with a Store that
	// holds them in memory (Memory), where nothing else would free them; leave it false with a
	// durable store, whose changes come back on the session's next request.
	DropEvicted bool
	// Now is the clock of idle eviction; nil means time.Now.
	Now func() time.Time
}

// Registry holds the live sessions over a Store, shared by every API (NewAPI) so that the
// limits count a session once. It is safe for concurrent use. It starts no goroutine: idle
// sessions are evicted as requests come (at most every Idle/8) and when the registry is full.
type Registry struct {
	store  Store
	opts   Options
	limits Limits

	mu        sync.Mutex
	sessions  map[string]*session
	lastSweep time.Time
}

// session is the live state of one session, every API.
type session struct {
	id   string
	last atomic.Int64 // unix nanoseconds of the last request

	mu    sync.Mutex
	live  map[string]any            // api → the API's live state
	sizes map[string]map[string]int // api → key → bytes of the stored change
	bytes int64                     // the sum of sizes
}

// NewRegistry returns a registry over store.
func NewRegistry(store Store, opts Options) *Registry {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Registry{store: store, opts: opts, limits: opts.Limits.withDefaults(), sessions: map[string]*session{}}
}

// Store returns the registry's Store.
func (r *Registry) Store() Store { return r.store }

// Limits returns the limits in force, defaults filled in.
func (r *Registry) Limits() Limits { return r.limits }

// Len returns how many sessions are live.
func (r *Registry) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sessions)
}

// Bytes returns the bytes of stored changes of the live session, or 0 when it is not live.
func (r *Registry) Bytes(sessionID string) int64 {
	r.mu.Lock()
	s := r.sessions[sessionID]
	r.mu.Unlock()
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes
}

// session returns the live session of ctx, making it live when it is not, and marks it used.
func (r *Registry) session(ctx context.Context) (*session, error) {
	id := SessionOf(ctx)
	now := r.opts.Now()
	r.mu.Lock()
	if now.Sub(r.lastSweep) >= r.limits.Idle/8 {
		r.sweepLocked(now)
	}
	s := r.sessions[id]
	if s == nil {
		if len(r.sessions) >= r.limits.MaxSessions {
			r.sweepLocked(now)
		}
		if len(r.sessions) >= r.limits.MaxSessions {
			r.mu.Unlock()
			return nil, tooMany(r.limits.MaxSessions)
		}
		s = &session{id: id, live: map[string]any{}, sizes: map[string]map[string]int{}}
		r.sessions[id] = s
	}
	s.last.Store(now.UnixNano())
	r.mu.Unlock()
	return s, nil
}

// Sweep evicts the sessions idle for longer than Limits.Idle now, and returns how many.
func (r *Registry) Sweep() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sweepLocked(r.opts.Now())
}

// sweepLocked evicts the idle sessions; r.mu is held.
func (r *Registry) sweepLocked(now time.Time) int {
	r.lastSweep = now
	cutoff := now.Add(-r.limits.Idle).UnixNano()
	n := 0
	for id, s := range r.sessions {
		if s.last.Load() > cutoff {
			continue
		}
		delete(r.sessions, id)
		n++
		if r.opts.DropEvicted {
			_ = r.store.Drop(id) // a Memory store fails only when closed
		}
	}
	return n
}

// Reset puts the caller's session back to the seed in api, or in every API when api is "":
// its stored changes are forgotten and its live state rebuilt on the next request. Other
// sessions are untouched.
func (r *Registry) Reset(ctx context.Context, api string) error {
	id := SessionOf(ctx)
	r.mu.Lock()
	s := r.sessions[id]
	if api == "" {
		delete(r.sessions, id)
	}
	r.mu.Unlock()
	if api == "" {
		if err := r.store.Drop(id); err != nil {
			return fmt.Errorf("resetting the sandbox session: %w", err)
		}
		return nil
	}
	if s != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	if err := r.store.Reset(id, api); err != nil {
		return fmt.Errorf("resetting the %s sandbox: %w", api, err)
	}
	if s != nil {
		delete(s.live, api)
		for _, n := range s.sizes[api] {
			s.bytes -= int64(n)
		}
		delete(s.sizes, api)
	}
	return nil
}
