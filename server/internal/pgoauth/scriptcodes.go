package pgoauth

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// The script sandbox's authorization codes (script.SharedCodeStore), in script_codes: a code
// lives a minute, so the expired ones are deleted whenever a new one is kept.

// PutCode implements script.SharedCodeStore.
func (s *ScriptTokens) PutCode(code string, sealed []byte, expires time.Time) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	err := pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM script_codes WHERE expires < statement_timestamp()`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO script_codes (digest, sealed, expires) VALUES ($1, $2, $3)`, code, sealed, expires)
		return err
	})
	return wrap(s.db, "keeping an authorization code", err)
}

// UseCode implements script.SharedCodeStore: one statement marks the code used and says
// whether it was before, under the row's lock, so two replicas redeeming one code at once see
// one first use.
func (s *ScriptTokens) UseCode(code string) ([]byte, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var sealed []byte
	var usedBefore bool
	err := s.db.Pool.QueryRow(ctx, `WITH before AS (
			SELECT digest, used FROM script_codes WHERE digest = $1 AND expires > statement_timestamp() FOR UPDATE)
		UPDATE script_codes c SET used = true FROM before WHERE c.digest = before.digest
		RETURNING c.sealed, before.used`, code).Scan(&sealed, &usedBefore)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, wrap(s.db, "redeeming an authorization code", err)
	}
	return sealed, usedBefore, nil
}

// SetCode implements script.SharedCodeStore.
func (s *ScriptTokens) SetCode(code string, sealed []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := s.db.Pool.Exec(ctx, `UPDATE script_codes SET sealed = $2 WHERE digest = $1`, code, sealed)
	return wrap(s.db, "recording what an authorization code gave", err)
}

// DeleteCode implements script.SharedCodeStore.
func (s *ScriptTokens) DeleteCode(code string) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := s.db.Pool.Exec(ctx, `DELETE FROM script_codes WHERE digest = $1`, code)
	return wrap(s.db, "removing an authorization code", err)
}
