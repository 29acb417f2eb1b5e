package state

import (
	"context"
	"time"
)

// SharedBounds is a Versioned store that bounds, across every process sharing it, which
// anonymous sessions keep stored changes: Limits.MaxStored in total and 10 times
// Limits.MaxSessionsPerClient per client, as a single registry's own table does (issue 29: no
// table an anonymous caller can fill). Without it each replica would bound only the sessions
// it saw, and N replicas would keep N times the bound. pgstore implements it: a table of the
// sessions that hold changes, with their client, whether they are a signed-in user's, and
// when they were last used.
//
// The registry claims a session at its first change of an API (the store's generation of it
// was 0) and then, while the session keeps changing, at most once every Options.ClaimEvery
// per process: a change is not a write more on the database, and the least recently used order
// is at that granularity (a minute by default).
type SharedBounds interface {
	Versioned
	// Claim records that session, owned by client (protected: a signed-in user's or the local
	// one, never evicted for an anonymous one), holds stored changes and is used now, at the
	// store's clock. When it records a new session it also, in the same transaction, forgets
	// every stored change of the least recently used anonymous sessions past maxTotal in all
	// and past perClient of client's: their generations go back to 0, so every process holding
	// their live state at another generation sees them gone at its next request. It returns
	// the sessions it forgot.
	Claim(session, client string, protected bool, maxTotal, perClient int) (evicted []string, err error)
}

// DefaultClaimEvery is how often a process claims again a session that keeps changing
// (Options.ClaimEvery's default).
const DefaultClaimEvery = time.Minute

// storedPerClient is how many sessions with stored changes one client keeps.
func (l Limits) storedPerClient() int { return 10 * l.MaxSessionsPerClient }

// claimLocked tells whether s's change needs a claim: first says it was the first change of an
// API (a generation of 0 before it), else the last claim this process made of s is
// ClaimEvery old or unknown. When it does, it is recorded as made now. r.mu is held.
func (r *Registry) claimLocked(id string, client string, first bool) bool {
	now := r.opts.Now()
	if last, ok := r.claimed.Peek(id); ok && !first && now.Sub(last) < r.opts.ClaimEvery {
		return false
	}
	r.claimed.Put(id, now, client, isProtected(id))
	return true
}

// claim records s's change in the shared bounds, and drops here the sessions the claim
// evicted: their live state and their record of a claim. A claim that fails is forgotten, so
// the next change claims again; the change itself is stored.
func (r *Registry) claim(ctx context.Context, id string) {
	client := clientOf(ctx, id)
	evicted, err := r.bounds.Claim(id, client, isProtected(id), r.limits.MaxStored, r.limits.storedPerClient())
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.claimed.Delete(id)
		return
	}
	for _, v := range evicted {
		r.live.Delete(v)
		r.claimed.Delete(v)
	}
}
