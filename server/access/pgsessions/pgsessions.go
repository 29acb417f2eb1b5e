// Package pgsessions keeps the logins of access mode users in PostgreSQL (server.database), so
// that a login made on one Loupe replica holds on every other, and a logout on one ends it
// everywhere. It shares the sandbox state's connection pool (server/internal/pgdb, whose
// migration 2 makes its table, login_sessions).
//
// Like the in-memory store, a user keeps their access.MaxSessionsPerUser most recent logins
// (one more ends their oldest); ended and expired logins are deleted. It is an
// access.CheckedSessions: when the database is away, a lookup or a logout says so (503) rather
// than answering "not logged in" or "logged out".
package pgsessions

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"loupe/server/access"
	"loupe/server/internal/pgdb"
)

// timeout bounds one call on the database.
const timeout = 10 * time.Second

// Store is an access.CheckedSessions in PostgreSQL.
type Store struct {
	db *pgdb.DB
}

// New returns the store on db, which is open and migrated (pgdb.Open); closing db is the
// caller's.
func New(db *pgdb.DB) *Store { return &Store{db: db} }

// Create implements access.SessionStore: the new login, and the user's oldest past
// access.MaxSessionsPerUser deleted, in one transaction. (Expired logins are deleted when
// looked up; the bound per user bounds the rest, as the users file bounds the users.)
func (s *Store) Create(user string, expires time.Time) (string, error) {
	id := rand.Text() // 26 base32 characters, 130 bits
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	err := pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		b := &pgx.Batch{}
		b.Queue(`INSERT INTO login_sessions (id, username, expires) VALUES ($1, $2, $3)`, id, user, expires)
		b.Queue(`DELETE FROM login_sessions WHERE username = $1 AND seq NOT IN
			(SELECT seq FROM login_sessions WHERE username = $1 ORDER BY seq DESC LIMIT $2)`, user, access.MaxSessionsPerUser)
		return tx.SendBatch(ctx, b).Close()
	})
	if err != nil {
		return "", s.wrap("starting a login session", err)
	}
	return id, nil
}

// Lookup implements access.SessionStore; a database away reads as no session (LookupChecked
// tells it apart).
func (s *Store) Lookup(id string, now time.Time) (string, bool) {
	user, ok, _ := s.LookupChecked(id, now)
	return user, ok
}

// LookupChecked implements access.CheckedSessions: a primary-key lookup; an expired login is
// deleted.
func (s *Store) LookupChecked(id string, now time.Time) (string, bool, error) {
	if id == "" {
		return "", false, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var user string
	var expires time.Time
	err := s.db.Pool.QueryRow(ctx, `SELECT username, expires FROM login_sessions WHERE id = $1`, id).Scan(&user, &expires)
	if err == nil && !now.Before(expires) {
		return "", false, s.DeleteChecked(id)
	}
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return "", false, nil
	case err != nil:
		var pe interface{ SQLState() string }
		if errors.As(err, &pe) && pe.SQLState() == "22021" { // an ID that is not UTF-8 names no session
			return "", false, nil
		}
		return "", false, s.wrap("checking a login session", err)
	}
	return user, true, nil
}

// Delete implements access.SessionStore.
func (s *Store) Delete(id string) { _ = s.DeleteChecked(id) }

// DeleteChecked implements access.CheckedSessions.
func (s *Store) DeleteChecked(id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := s.db.Pool.Exec(ctx, `DELETE FROM login_sessions WHERE id = $1`, id)
	if err != nil {
		var pe interface{ SQLState() string }
		if errors.As(err, &pe) && pe.SQLState() == "22021" {
			return nil
		}
		return s.wrap("ending a login session", err)
	}
	return nil
}

// wrap words an error with what was done and, when the database is away, what to check.
func (s *Store) wrap(what string, err error) error {
	if pgdb.Unavailable(err) {
		return fmt.Errorf("%s: %s", what, pgdb.Explain(err, s.db.Where))
	}
	return fmt.Errorf("%s: %w", what, err)
}
