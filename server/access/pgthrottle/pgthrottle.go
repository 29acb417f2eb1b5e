// Package pgthrottle keeps the login throttle's failures (access.Throttle) in PostgreSQL
// (server.database), so that a guesser who spreads wrong passwords over the Loupe replicas
// behind a load balancer waits as long as on one replica: every replica counts the same
// failures of a key (a client address, an account, a trusted browser of an account) and reads
// the same wait. It shares the sandbox state's connection pool (server/internal/pgdb, whose
// migration 6 makes its table, login_failures).
//
// Its waits are the in-memory throttle's (access.Delays, checked by the same table test,
// server/access/throttletest): a key's failures in a row, forgotten a quiet spell (Forget)
// after the last, make it wait Delays.After(failures) from the last one. The times are the
// callers' clocks, as in memory: replicas are assumed to keep theirs in step (NTP), and a skew
// of s shifts a wait by s.
//
// The table stays bounded as the in-memory one does (issue 29: no table an anonymous caller
// can fill): a failure that makes a new key evicts, in the same transaction, the least recently
// failed keys of its kind past the bound (unprotected keys past MaxAnonymous, protected ones
// past as many), so a flood of addresses never evicts an account's or a browser's failures; it
// also forgets the keys whose failures a quiet spell forgot.
package pgthrottle

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"loupe/server/access"
	"loupe/server/internal/pgdb"
)

// timeout bounds one call on the database.
const timeout = 10 * time.Second

// Throttle is an access.CheckedThrottle in PostgreSQL. It is safe for concurrent use.
type Throttle struct {
	db           *pgdb.DB
	delays       access.Delays
	maxAnonymous int
}

var _ access.CheckedThrottle = (*Throttle)(nil)

// New returns the throttle on db, which is open and migrated (pgdb.Open), with delays d,
// keeping at most maxAnonymous unprotected keys (and as many protected ones); below 1 means
// access.DefaultThrottleAddresses. Closing db is the caller's.
func New(db *pgdb.DB, d access.Delays, maxAnonymous int) *Throttle {
	if maxAnonymous < 1 {
		maxAnonymous = access.DefaultThrottleAddresses
	}
	return &Throttle{db: db, delays: d, maxAnonymous: maxAnonymous}
}

// Wait implements access.Throttle; a database away reads as no wait (WaitChecked tells it
// apart, and the gate uses that).
func (t *Throttle) Wait(key string, now time.Time) time.Duration {
	d, _ := t.WaitChecked(key, now)
	return d
}

// WaitChecked implements access.CheckedThrottle: a primary-key lookup.
func (t *Throttle) WaitChecked(key string, now time.Time) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var until time.Time
	err := t.db.Pool.QueryRow(ctx, `SELECT until FROM login_failures WHERE key = $1`, []byte(key)).Scan(&until)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return 0, nil
	case err != nil:
		return 0, t.wrap("reading the login throttle", err)
	case !now.Before(until):
		return 0, nil
	}
	return until.Sub(now), nil
}

// Failed implements access.Throttle; an error is dropped (FailedChecked returns it).
func (t *Throttle) Failed(key string, protected bool, now time.Time) {
	_ = t.FailedChecked(key, protected, now)
}

// next is a failure's count in a row: one more than the key's, or 1 when its last failure is
// more than Forget ($5, seconds) before now ($2).
const next = `(CASE WHEN $2::timestamptz - f.last > make_interval(secs => $5) THEN 1 ELSE f.failures + 1 END)`

// waitAfter is Delays.After in SQL, in seconds, for the count n: nothing for the first Free
// ($6), then First ($7) doubling up to Ceiling ($8). The exponent is capped so that power
// never overflows; the ceiling is reached long before.
func waitAfter(n string) string {
	return `(CASE WHEN ` + n + ` <= $6 THEN 0 ELSE LEAST($8::float8, $7::float8 * power(2::float8, LEAST(` + n + ` - $6 - 1, 60))) END)`
}

// fail counts a failure of key $1 at $2: a new key starts at one failure (its wait, $3
// seconds, computed by Delays.After); a known one counts one more, or starts again after a
// quiet spell. inserted says the key is new.
var fail = `
INSERT INTO login_failures AS f (key, failures, last, until, protected)
VALUES ($1, 1, $2, $2::timestamptz + make_interval(secs => $3), $4)
ON CONFLICT (key) DO UPDATE SET
	failures = ` + next + `,
	last = $2,
	until = $2::timestamptz + make_interval(secs => ` + waitAfter(next) + `),
	protected = f.protected OR EXCLUDED.protected
RETURNING (xmax = 0) AS inserted`

// FailedChecked implements access.CheckedThrottle: one transaction that counts the failure
// and, when it made a new key, evicts the least recently failed keys of its kind past the
// bound and forgets the keys a quiet spell forgot.
func (t *Throttle) FailedChecked(key string, protected bool, now time.Time) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	d := t.delays
	err := pgx.BeginFunc(ctx, t.db.Pool, func(tx pgx.Tx) error {
		var inserted bool
		if err := tx.QueryRow(ctx, fail, []byte(key), now, d.After(1).Seconds(), protected,
			d.Forget.Seconds(), d.Free, d.First.Seconds(), d.Ceiling.Seconds()).Scan(&inserted); err != nil {
			return err
		}
		if !inserted {
			return nil
		}
		b := &pgx.Batch{}
		b.Queue(`DELETE FROM login_failures WHERE key IN (
			SELECT key FROM login_failures WHERE protected = $1 ORDER BY last DESC, key OFFSET $2)`, protected, t.maxAnonymous)
		b.Queue(`DELETE FROM login_failures WHERE last < $1::timestamptz - make_interval(secs => $2) AND until <= $1`,
			now, d.Forget.Seconds())
		return tx.SendBatch(ctx, b).Close()
	})
	if err != nil {
		return t.wrap("counting a failed login", err)
	}
	return nil
}

// Succeeded implements access.Throttle: the key's failures are forgotten. A database away
// leaves them, and the key waits as it would have.
func (t *Throttle) Succeeded(key string) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, _ = t.db.Pool.Exec(ctx, `DELETE FROM login_failures WHERE key = $1`, []byte(key))
}

// Len returns how many keys of each kind the table holds, for tests and logs.
func (t *Throttle) Len(ctx context.Context) (anonymous, protected int, err error) {
	err = t.db.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE NOT protected), count(*) FILTER (WHERE protected) FROM login_failures`).
		Scan(&anonymous, &protected)
	if err != nil {
		return 0, 0, t.wrap("counting the login throttle's keys", err)
	}
	return anonymous, protected, nil
}

// wrap words an error with what was done and, when the database is away, what to check.
func (t *Throttle) wrap(what string, err error) error {
	if pgdb.Unavailable(err) {
		return fmt.Errorf("%s: %s", what, pgdb.Explain(err, t.db.Where))
	}
	return fmt.Errorf("%s: %w", what, err)
}
