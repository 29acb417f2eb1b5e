package pgstore

import (
	"context"
	"slices"

	"github.com/jackc/pgx/v5"

	"loupe/server/sandbox/state"
)

// The store bounds the sessions that hold stored changes across every replica (pgdb's
// migration 7, table sandbox_sessions: session → client, protected, used).
var _ state.SharedBounds = (*Store)(nil)

// claimLock is the advisory lock that one claim that records a new anonymous session holds
// while it evicts: such claims run one at a time across the replicas, so that two of them
// never count past the bound together, nor lock each other's victims in turn. A claim of a
// known session (a touch) or of a signed-in user's takes no such lock.
const claimLock = 0x4c6f75706543 // "LoupeC"

// Claim implements state.SharedBounds. A known session is touched (its used time set to the
// database's clock): one primary-key update. A new one is recorded, and when it is anonymous
// the least recently used anonymous sessions past maxTotal, and past perClient of its client,
// are evicted in the same transaction: under each one's session lock (the one Apply takes, in
// a fixed order), their changes, generations and record are deleted.
func (s *Store) Claim(session, client string, protected bool, maxTotal, perClient int) ([]string, error) {
	if s.closed.Load() {
		return nil, state.ErrClosed
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var evicted []string
	err := s.wrap(pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		evicted = nil
		tag, err := tx.Exec(ctx, `UPDATE sandbox_sessions SET used = statement_timestamp() WHERE session = $1`, []byte(session))
		if err != nil || tag.RowsAffected() == 1 {
			return err
		}
		if !protected {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(claimLock)); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO sandbox_sessions (session, client, protected, used)
			VALUES ($1, $2, $3, statement_timestamp())
			ON CONFLICT (session) DO UPDATE SET used = EXCLUDED.used`, []byte(session), []byte(client), protected); err != nil {
			return err
		}
		if protected {
			return nil
		}
		if evicted, err = victims(ctx, tx, client, maxTotal, perClient); err != nil || len(evicted) == 0 {
			return err
		}
		return evict(ctx, tx, evicted)
	}))
	if err != nil {
		return nil, err
	}
	return evicted, nil
}

// victims returns the anonymous sessions past the bounds, least recently used first among
// equals: past perClient of client's, and past maxTotal in all.
func victims(ctx context.Context, tx pgx.Tx, client string, maxTotal, perClient int) ([]string, error) {
	rows, err := tx.Query(ctx, `
		(SELECT session FROM sandbox_sessions WHERE client = $1 AND NOT protected ORDER BY used DESC, session OFFSET $2)
		UNION
		(SELECT session FROM sandbox_sessions WHERE NOT protected ORDER BY used DESC, session OFFSET $3)`,
		[]byte(client), max(perClient, 1), max(maxTotal, 1))
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
		var b []byte
		err := r.Scan(&b)
		return string(b), err
	})
}

// evict takes the session locks of ids in the order of their keys (so that two transactions
// never wait for each other's), then deletes their changes, generations and records.
func evict(ctx context.Context, tx pgx.Tx, ids []string) error {
	keys := make([]int64, len(ids))
	raw := make([][]byte, len(ids))
	for i, id := range ids {
		keys[i], raw[i] = lockKey(id), []byte(id)
	}
	slices.Sort(keys)
	b := &pgx.Batch{}
	for _, k := range slices.Compact(keys) {
		b.Queue(`SELECT pg_advisory_xact_lock($1)`, k)
	}
	b.Queue(`DELETE FROM sandbox_changes WHERE session = ANY($1)`, raw)
	b.Queue(`DELETE FROM sandbox_generations WHERE session = ANY($1)`, raw)
	b.Queue(`DELETE FROM sandbox_sessions WHERE session = ANY($1)`, raw)
	return tx.SendBatch(ctx, b).Close()
}

// StoredSessions returns how many anonymous and protected sessions the bounds record, for
// tests and logs.
func (s *Store) StoredSessions(ctx context.Context) (anonymous, protected int, err error) {
	err = s.db.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE NOT protected), count(*) FILTER (WHERE protected) FROM sandbox_sessions`).
		Scan(&anonymous, &protected)
	return anonymous, protected, s.wrap(err)
}
