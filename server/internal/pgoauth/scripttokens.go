package pgoauth

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"loupe/server/internal/pgdb"
)

// ScriptTokens is a script.SharedTokenStore in PostgreSQL: the sealed grants by their
// digest (script_grants) and the sealed access tokens by theirs, each with its grant's
// (script_access, deleted with its grant).
type ScriptTokens struct{ db *pgdb.DB }

// NewScriptTokens returns the script sandbox's issued tokens on db, which is open and
// migrated (pgdb.Open); closing db is the caller's.
func NewScriptTokens(db *pgdb.DB) *ScriptTokens { return &ScriptTokens{db: db} }

// PutGrant implements script.TokenStore.
func (s *ScriptTokens) PutGrant(grant string, sealed []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := s.db.Pool.Exec(ctx, `INSERT INTO script_grants (digest, sealed) VALUES ($1, $2)
		ON CONFLICT (digest) DO UPDATE SET sealed = EXCLUDED.sealed`, grant, sealed)
	return wrap(s.db, "keeping an issued grant", err)
}

// PutAccess implements script.TokenStore. An access token of a grant not kept (revoked
// meanwhile) is not kept either.
func (s *ScriptTokens) PutAccess(grant, access string, sealed []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := s.db.Pool.Exec(ctx, `INSERT INTO script_access (digest, grant_digest, sealed)
		SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM script_grants WHERE digest = $2)
		ON CONFLICT (digest) DO UPDATE SET sealed = EXCLUDED.sealed`, access, grant, sealed)
	var pe interface{ SQLState() string }
	if errors.As(err, &pe) && pe.SQLState() == "23503" { // the grant was revoked in between
		return nil
	}
	return wrap(s.db, "keeping an issued access token", err)
}

// DeleteGrant implements script.TokenStore: its access tokens go with it.
func (s *ScriptTokens) DeleteGrant(grant string) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := s.db.Pool.Exec(ctx, `DELETE FROM script_grants WHERE digest = $1`, grant)
	return wrap(s.db, "removing an issued grant", err)
}

// DeleteAccess implements script.TokenStore.
func (s *ScriptTokens) DeleteAccess(grant, access string) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := s.db.Pool.Exec(ctx, `DELETE FROM script_access WHERE digest = $1 AND grant_digest = $2`, access, grant)
	return wrap(s.db, "removing an issued access token", err)
}

// Load implements script.TokenStore: every grant with its access tokens, read in one query
// and handed to f after it (f may be slow; no transaction stays open).
func (s *ScriptTokens) Load(f func(grant string, sealed []byte, access map[string][]byte)) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	rows, err := s.db.Pool.Query(ctx, `SELECT g.digest, g.sealed, a.digest, a.sealed
		FROM script_grants g LEFT JOIN script_access a ON a.grant_digest = g.digest ORDER BY g.digest`)
	if err != nil {
		return wrap(s.db, "reading the issued tokens", err)
	}
	type kept struct {
		sealed []byte
		access map[string][]byte
	}
	var order []string
	grants := map[string]*kept{}
	var gd string
	var gs []byte
	var ad *string
	var as []byte
	_, err = pgx.ForEachRow(rows, []any{&gd, &gs, &ad, &as}, func() error {
		k := grants[gd]
		if k == nil {
			k = &kept{sealed: gs, access: map[string][]byte{}}
			grants[gd] = k
			order = append(order, gd)
		}
		if ad != nil {
			k.access[*ad] = as
		}
		return nil
	})
	if err != nil {
		return wrap(s.db, "reading the issued tokens", err)
	}
	for _, d := range order {
		f(d, grants[d].sealed, grants[d].access)
	}
	return nil
}

// GetGrant implements script.SharedTokenStore: one lookup by primary key.
func (s *ScriptTokens) GetGrant(grant string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var sealed []byte
	err := s.db.Pool.QueryRow(ctx, `SELECT sealed FROM script_grants WHERE digest = $1`, grant).Scan(&sealed)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, wrap(s.db, "reading an issued grant", err)
	}
	return sealed, nil
}

// GetAccess implements script.SharedTokenStore: one lookup by primary key (an access token
// is deleted with its grant, so one found has its grant).
func (s *ScriptTokens) GetAccess(access string) (string, []byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var grant string
	var sealed []byte
	err := s.db.Pool.QueryRow(ctx, `SELECT grant_digest, sealed FROM script_access WHERE digest = $1`, access).Scan(&grant, &sealed)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, wrap(s.db, "reading an issued access token", err)
	}
	return grant, sealed, nil
}
