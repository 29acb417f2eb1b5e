// Package pgstore is the state.Store that Loupe replicas share: the sandboxes' stored changes
// in PostgreSQL (server.database), through pgx's connection pool (server/internal/pgdb, which
// also migrates the schema at start). Each Apply is one transaction, committed before it
// returns: an acknowledged change is in the database, whichever replica serves the next
// request.
//
// It is a state.Versioned store: every change of a (session, api) gives it a new generation
// (one sequence for all), so that a replica's registry sees, with one primary-key lookup,
// whether the live state it holds is still the stored one.
//
// It is a state.SharedBounds store (claims.go): the anonymous sessions that keep stored
// changes are bounded across every replica, in total and per client, least recently used
// first, never a signed-in user's.
//
// Tables (pgdb's migration 1): sandbox_changes (session, api, key → value, all bytea, so keys
// sort bytewise like bbolt's and may hold any byte) and sandbox_generations (session, api →
// generation). A session's writers are serialized by a transaction-scoped advisory lock on a
// hash of the session.
package pgstore

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"loupe/server/internal/pgdb"
	"loupe/server/sandbox/state"
)

// timeout bounds one call on the database: past it the call fails as unavailable (503).
var timeout = 15 * time.Second

// Store is a state.Versioned store on PostgreSQL.
type Store struct {
	db     *pgdb.DB
	closed atomic.Bool
}

// Open connects to the database at url and migrates its schema (pgdb.Open); the error says
// what to fix. The Store owns the connection pool: Close closes it.
func Open(ctx context.Context, url string) (*Store, error) {
	db, err := pgdb.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

// DB returns the database, whose pool other stores on it share (the login sessions).
func (s *Store) DB() *pgdb.DB { return s.db }

// Where names the database without its password, for logs.
func (s *Store) Where() string { return s.db.Where }

// Apply implements state.Store: one committed transaction.
func (s *Store) Apply(session, api string, changes []state.Change) error {
	_, err := s.ApplyAt(session, api, -1, changes)
	return err
}

// ApplyAt implements state.Versioned; at < 0 applies whatever the generation.
func (s *Store) ApplyAt(session, api string, at int64, changes []state.Change) (int64, error) {
	if err := state.Validate(session, api, changes); err != nil {
		return 0, err
	}
	var gen int64
	err := s.tx(session, func(ctx context.Context, tx pgx.Tx) error {
		var old int64
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(generation), 0) FROM sandbox_generations WHERE session = $1 AND api = $2`,
			[]byte(session), []byte(api)).Scan(&old); err != nil {
			return err
		}
		if at >= 0 && old != at {
			return state.ErrConflict
		}
		b := &pgx.Batch{}
		for _, c := range changes {
			if c.Value == nil {
				b.Queue(`DELETE FROM sandbox_changes WHERE session = $1 AND api = $2 AND key = $3`, []byte(session), []byte(api), []byte(c.Key))
			} else {
				b.Queue(`INSERT INTO sandbox_changes (session, api, key, value) VALUES ($1, $2, $3, $4)
					ON CONFLICT (session, api, key) DO UPDATE SET value = EXCLUDED.value`, []byte(session), []byte(api), []byte(c.Key), c.Value)
			}
		}
		b.Queue(`INSERT INTO sandbox_generations (session, api, generation) VALUES ($1, $2, nextval('sandbox_generation'))
			ON CONFLICT (session, api) DO UPDATE SET generation = EXCLUDED.generation RETURNING generation`, []byte(session), []byte(api)).
			QueryRow(func(r pgx.Row) error { return r.Scan(&gen) })
		return tx.SendBatch(ctx, b).Close()
	})
	return gen, err
}

// Load implements state.Store.
func (s *Store) Load(session, api string) ([]state.Entry, error) {
	es, _, err := s.LoadAt(session, api)
	return es, err
}

// LoadAt implements state.Versioned: one statement, so one snapshot.
func (s *Store) LoadAt(session, api string) ([]state.Entry, int64, error) {
	if s.closed.Load() {
		return nil, 0, state.ErrClosed
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	rows, err := s.db.Pool.Query(ctx, `SELECT g.generation, c.key, c.value
		FROM (SELECT coalesce(max(generation), 0) AS generation FROM sandbox_generations WHERE session = $1 AND api = $2) g
		LEFT JOIN sandbox_changes c ON c.session = $1 AND c.api = $2
		ORDER BY c.key`, []byte(session), []byte(api))
	if err != nil {
		return nil, 0, s.wrap(err)
	}
	out := []state.Entry{}
	var gen int64
	for rows.Next() {
		var key, value []byte
		if err := rows.Scan(&gen, &key, &value); err != nil {
			return nil, 0, s.wrap(err)
		}
		if key != nil {
			out = append(out, state.Entry{Key: string(key), Value: value})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, s.wrap(err)
	}
	return out, gen, nil
}

// Generation implements state.Versioned: a primary-key lookup.
func (s *Store) Generation(session, api string) (int64, error) {
	if s.closed.Load() {
		return 0, state.ErrClosed
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var gen int64
	err := s.db.Pool.QueryRow(ctx, `SELECT coalesce(max(generation), 0) FROM sandbox_generations WHERE session = $1 AND api = $2`,
		[]byte(session), []byte(api)).Scan(&gen)
	return gen, s.wrap(err)
}

// Reset implements state.Store: the changes and the generation go (generation 0 again).
func (s *Store) Reset(session, api string) error {
	return s.tx(session, func(ctx context.Context, tx pgx.Tx) error {
		b := &pgx.Batch{}
		b.Queue(`DELETE FROM sandbox_changes WHERE session = $1 AND api = $2`, []byte(session), []byte(api))
		b.Queue(`DELETE FROM sandbox_generations WHERE session = $1 AND api = $2`, []byte(session), []byte(api))
		return tx.SendBatch(ctx, b).Close()
	})
}

// Drop implements state.Store: the changes, the generations, and the session's record in the
// bounds (claims.go).
func (s *Store) Drop(session string) error {
	return s.tx(session, func(ctx context.Context, tx pgx.Tx) error {
		b := &pgx.Batch{}
		b.Queue(`DELETE FROM sandbox_changes WHERE session = $1`, []byte(session))
		b.Queue(`DELETE FROM sandbox_generations WHERE session = $1`, []byte(session))
		b.Queue(`DELETE FROM sandbox_sessions WHERE session = $1`, []byte(session))
		return tx.SendBatch(ctx, b).Close()
	})
}

// ListSessions implements state.Lister.
func (s *Store) ListSessions() ([]string, error) {
	if s.closed.Load() {
		return nil, state.ErrClosed
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	rows, err := s.db.Pool.Query(ctx, `SELECT DISTINCT session FROM sandbox_changes`)
	if err != nil {
		return nil, s.wrap(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
		var b []byte
		err := r.Scan(&b)
		return string(b), err
	})
	return out, s.wrap(err)
}

// Close implements state.Store: it closes the connection pool.
func (s *Store) Close() error {
	if !s.closed.Swap(true) {
		s.db.Close()
	}
	return nil
}

// tx runs f in a transaction that holds session's advisory lock, and commits it.
func (s *Store) tx(session string, f func(context.Context, pgx.Tx) error) error {
	if s.closed.Load() {
		return state.ErrClosed
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return s.wrap(pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, lockKey(session)); err != nil {
			return err
		}
		return f(ctx, tx)
	}))
}

// lockKey is the advisory lock of a session's writers: a hash, whose rare collisions only
// make two sessions wait for each other.
func lockKey(session string) int64 {
	h := fnv.New64a()
	h.Write([]byte("loupe-sandbox\x00" + session))
	return int64(h.Sum64())
}

// wrap words a database error: state.ErrClosed after Close, state.ErrUnavailable when the
// database cannot be used now, ErrConflict as it is, anything else with context.
func (s *Store) wrap(err error) error {
	switch {
	case err == nil, errors.Is(err, state.ErrConflict):
		return err
	case s.closed.Load():
		return state.ErrClosed
	case pgdb.Unavailable(err):
		return fmt.Errorf("%w: %s", state.ErrUnavailable, pgdb.Explain(err, s.db.Where))
	}
	return fmt.Errorf("sandbox state database: %w", err)
}
