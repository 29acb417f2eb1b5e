// Package pgoauth keeps OAuth state in PostgreSQL (server.database), so that every Loupe
// replica naming the database shares it: the users' grants (Grants, an oauth.GrantStore) and
// the grants, access tokens, codes and answered consents of the script sandbox's
// authorization server (ScriptTokens, a script.BoundedTokenStore: the server's bounds on them
// hold across the replicas, scriptbounds.go). Both share the sandbox state's connection pool
// (server/internal/pgdb, whose migration 4 makes their tables) and hold only what their
// packages sealed (AES-256-GCM under keys derived from the secret key): no token is kept in
// the clear, and none is logged.
package pgoauth

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"loupe/server/internal/pgdb"
)

// timeout bounds one call on the database.
const timeout = 10 * time.Second

// Grants is an oauth.GrantStore in PostgreSQL: one sealed grant per user and API.
type Grants struct{ db *pgdb.DB }

// NewGrants returns the grants on db, which is open and migrated (pgdb.Open); closing db is
// the caller's.
func NewGrants(db *pgdb.DB) *Grants { return &Grants{db: db} }

// Put implements oauth.GrantStore.
func (g *Grants) Put(user, api string, sealed []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := g.db.Pool.Exec(ctx, `INSERT INTO oauth_grants (username, api, sealed) VALUES ($1, $2, $3)
		ON CONFLICT (username, api) DO UPDATE SET sealed = EXCLUDED.sealed`, user, api, sealed)
	return wrap(g.db, "keeping an OAuth grant", err)
}

// Get implements oauth.GrantStore: one lookup by primary key; nil when there is none.
func (g *Grants) Get(user, api string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var sealed []byte
	err := g.db.Pool.QueryRow(ctx, `SELECT sealed FROM oauth_grants WHERE username = $1 AND api = $2`, user, api).Scan(&sealed)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, wrap(g.db, "reading an OAuth grant", err)
	}
	return sealed, nil
}

// Delete implements oauth.GrantStore.
func (g *Grants) Delete(user, api string) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := g.db.Pool.Exec(ctx, `DELETE FROM oauth_grants WHERE username = $1 AND api = $2`, user, api)
	return wrap(g.db, "removing an OAuth grant", err)
}

// wrap words err (nil: none) with what was done and, when the database is away, what to check.
func wrap(db *pgdb.DB, what string, err error) error {
	switch {
	case err == nil:
		return nil
	case pgdb.Unavailable(err):
		return fmt.Errorf("%s: %s", what, pgdb.Explain(err, db.Where))
	}
	return fmt.Errorf("%s: %w", what, err)
}
