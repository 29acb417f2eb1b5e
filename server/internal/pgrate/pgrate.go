// Package pgrate keeps the proxy's token buckets in PostgreSQL, so that a user's calls per
// second hold across every Loupe replica on one database: N replicas behind a load balancer
// give a user the configured rate, not N times it.
//
// A bucket is one row (key, tokens, at). Taking a token is one statement that refills the
// bucket for the time since at, at the database's clock, and takes a token only when one is
// there; the row lock of that statement orders the replicas' calls on one key. The refill is
// x/time/rate's: rate tokens a second, at most burst, a new bucket full.
//
// The table stays bounded as the in-process buckets are (issue 29: no table an anonymous
// caller can fill): buckets idle for an hour are forgotten, and past MaxAnonymous buckets of
// anonymous callers the ones unused longest are, never a signed-in user's. A forgotten bucket
// starts full again, as a new one does.
package pgrate

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Defaults of Options.
const (
	DefaultMaxAnonymous = 10_000
	DefaultIdle         = time.Hour
	DefaultSweepEvery   = time.Minute
)

// Options configures Buckets.
type Options struct {
	// Rate is how many tokens a bucket gains a second; it must be positive.
	Rate float64
	// Burst is how many tokens a bucket holds at most, and a new one holds. Below 1 means 1.
	Burst int
	// MaxAnonymous bounds the buckets of callers that are not signed in. Zero means
	// DefaultMaxAnonymous.
	MaxAnonymous int
	// Idle is how long an unused bucket is kept. Zero means DefaultIdle.
	Idle time.Duration
	// SweepEvery is how often this replica forgets idle and surplus buckets, at the latest:
	// it also sweeps after it made MaxAnonymous/10 new anonymous buckets. Zero means
	// DefaultSweepEvery.
	SweepEvery time.Duration
}

// Buckets takes tokens from the buckets in PostgreSQL. It is safe for concurrent use.
type Buckets struct {
	pool *pgxpool.Pool
	opt  Options

	mu       sync.Mutex
	swept    time.Time
	made     int  // anonymous buckets this replica made since it last swept
	sweeping bool // a sweep is running
}

// New returns the buckets of pool's database, migrated by server/internal/pgdb (its table
// rate_buckets).
func New(pool *pgxpool.Pool, opt Options) (*Buckets, error) {
	if opt.Rate <= 0 {
		return nil, fmt.Errorf("shared rate limit: the rate must be positive, got %g", opt.Rate)
	}
	if opt.Burst < 1 {
		opt.Burst = 1
	}
	if opt.MaxAnonymous <= 0 {
		opt.MaxAnonymous = DefaultMaxAnonymous
	}
	if opt.Idle <= 0 {
		opt.Idle = DefaultIdle
	}
	if opt.SweepEvery <= 0 {
		opt.SweepEvery = DefaultSweepEvery
	}
	return &Buckets{pool: pool, opt: opt, swept: time.Now()}, nil
}

// take refills key's bucket for the time since it was last used and takes a token when there
// is one, at the database's clock (statement_timestamp, one value for the whole statement).
// It returns a row only when a token was taken; inserted says the bucket is new.
const take = `
INSERT INTO rate_buckets AS b (key, tokens, at, signed_in)
VALUES ($1, $3::float8 - 1, statement_timestamp(), $4)
ON CONFLICT (key) DO UPDATE SET
	tokens = LEAST($3::float8, b.tokens + $2::float8 * EXTRACT(EPOCH FROM statement_timestamp() - b.at)::float8) - 1,
	at = statement_timestamp(),
	signed_in = b.signed_in OR EXCLUDED.signed_in
WHERE LEAST($3::float8, b.tokens + $2::float8 * EXTRACT(EPOCH FROM statement_timestamp() - b.at)::float8) >= 1
RETURNING (xmax = 0) AS inserted`

// short is, for a bucket that had no token, how long until it has one.
const short = `
SELECT (1 - LEAST($3::float8, tokens + $2::float8 * EXTRACT(EPOCH FROM statement_timestamp() - at)::float8)) / $2::float8
FROM rate_buckets WHERE key = $1`

// Wait takes a token from key's bucket and returns zero, or returns how long until the bucket
// has one, taking nothing. signedIn says key is a signed-in user's, whose bucket is never
// forgotten to make room. An error means the database did not answer: the caller cannot know
// the rate, and says so (the proxy answers 503).
func (b *Buckets) Wait(ctx context.Context, key string, signedIn bool) (time.Duration, error) {
	var inserted bool
	err := b.pool.QueryRow(ctx, take, key, b.opt.Rate, b.opt.Burst, signedIn).Scan(&inserted)
	switch {
	case err == nil:
		b.maybeSweep(inserted && !signedIn)
		return 0, nil
	case !errors.Is(err, pgx.ErrNoRows):
		return 0, fmt.Errorf("taking a token from the shared rate limit: %w", err)
	}
	var secs float64
	if err := b.pool.QueryRow(ctx, short, key, b.opt.Rate, b.opt.Burst).Scan(&secs); err != nil {
		if errors.Is(err, pgx.ErrNoRows) { // forgotten meanwhile: the next call finds it full
			return 0, nil
		}
		return 0, fmt.Errorf("reading the shared rate limit: %w", err)
	}
	d := time.Duration(secs * float64(time.Second))
	if d <= 0 { // refilled between the two statements
		d = time.Millisecond
	}
	return d, nil
}

// maybeSweep starts a sweep in the background when it is due: SweepEvery after the last one,
// or when this replica made a tenth of MaxAnonymous new anonymous buckets since.
func (b *Buckets) maybeSweep(madeAnonymous bool) {
	b.mu.Lock()
	if madeAnonymous {
		b.made++
	}
	due := !b.sweeping && (time.Since(b.swept) >= b.opt.SweepEvery || b.made >= b.opt.MaxAnonymous/10)
	if due {
		b.sweeping = true
	}
	b.mu.Unlock()
	if !due {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = b.Sweep(ctx) // a failed sweep is tried again when next due
	}()
}

// Sweep forgets the buckets idle for longer than Idle, and the anonymous buckets unused
// longest past MaxAnonymous.
func (b *Buckets) Sweep(ctx context.Context) error {
	defer func() {
		b.mu.Lock()
		b.sweeping, b.swept, b.made = false, time.Now(), 0
		b.mu.Unlock()
	}()
	if _, err := b.pool.Exec(ctx, `DELETE FROM rate_buckets WHERE at < statement_timestamp() - make_interval(secs => $1)`, b.opt.Idle.Seconds()); err != nil {
		return fmt.Errorf("forgetting idle rate buckets: %w", err)
	}
	if _, err := b.pool.Exec(ctx, `DELETE FROM rate_buckets WHERE key IN (
		SELECT key FROM rate_buckets WHERE NOT signed_in ORDER BY at DESC OFFSET $1)`, b.opt.MaxAnonymous); err != nil {
		return fmt.Errorf("forgetting surplus anonymous rate buckets: %w", err)
	}
	return nil
}
