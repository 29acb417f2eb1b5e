package server

import (
	"context"
	"fmt"
	"time"

	"loupe/server/config"
	"loupe/server/internal/pgrate"
	"loupe/server/internal/pgslots"
	"loupe/server/proxy"
	"loupe/server/sandbox/script"
	"loupe/server/sandbox/state"
	"loupe/server/sandbox/state/pgstore"
)

// sharedLimits are the limits the replicas on server.database hold together: a user's calls
// per second through the proxy (pgrate's token buckets) and a user's script runs at once
// (pgslots' advisory locks). Without a database it is nil, and each limit is the process's
// own, as a single Loupe needs. Its methods take a nil receiver.
type sharedLimits struct {
	rate  *pgrate.Buckets // nil when server.limits.rate sets no limit
	slots *pgslots.Slots
}

// newSharedLimits returns the limits of reg's database when it is PostgreSQL, nil otherwise.
func newSharedLimits(reg *state.Registry, lim config.Limits) (*sharedLimits, error) {
	st, ok := reg.Store().(*pgstore.Store)
	if !ok {
		return nil, nil
	}
	db := st.DB()
	sh := &sharedLimits{}
	if lim.Rate > 0 {
		b, err := pgrate.New(db.Pool, pgrate.Options{Rate: lim.Rate, Burst: lim.Burst})
		if err != nil {
			return nil, fmt.Errorf("server.limits.rate: %w", err)
		}
		sh.rate = b
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	maxRuns, perUser := script.RunBounds(0, 0)
	slots, err := pgslots.New(ctx, db.Pool.Config(), maxRuns, perUser)
	if err != nil {
		return nil, fmt.Errorf("server.database: %w", err)
	}
	sh.slots = slots
	return sh, nil
}

// rateLimiter is the proxy's Config.Limiter: nil (the process's own buckets) without shared
// buckets.
func (sh *sharedLimits) rateLimiter() proxy.RateLimiter {
	if sh == nil || sh.rate == nil {
		return nil
	}
	return sh.rate
}

// scriptSlots is the script sandbox's SharedSlots: nil (the process's own count) without a
// database.
func (sh *sharedLimits) scriptSlots() script.SharedSlots {
	if sh == nil {
		return nil
	}
	return sh.slots
}

// close gives back the run slots this process holds.
func (sh *sharedLimits) close() {
	if sh != nil && sh.slots != nil {
		sh.slots.Close()
	}
}
