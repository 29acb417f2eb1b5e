package pgoauth

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"loupe/server/sandbox/script"
)

// The script sandbox's authorization server's bounds, held in the database so that they hold
// across every replica (script.BoundedTokenStore; pgdb's migration 8): each grant, code and
// answered consent records its owner and whether the owner is signed in, and a new one evicts,
// in its own transaction, the least recently used of its owner's past the per-owner bound and
// of its kind (signed in or not) past the total: never a signed-in user's entry for an
// anonymous one. The transactions that add an entry of a table take that table's advisory lock,
// so that they count one at a time across the replicas (a flood from several replicas cannot
// pass a bound together) and never lock each other's victims in turn.

var _ script.BoundedTokenStore = (*ScriptTokens)(nil)

// The advisory locks of the tables' adding transactions.
const (
	grantsLock   = 0x4c6f75706547 // "LoupeG"
	codesLock    = 0x4c6f75706543 + 0x100
	consentsLock = 0x4c6f75706543 + 0x200
)

// surplus deletes the rows of table past o's bounds, most recent by order first (the name of
// a column, or columns, descending): past o.PerOwner of o's owner and past o.Max of o's kind.
// key is the table's primary key.
func surplus(ctx context.Context, tx pgx.Tx, table, key, order string, o script.Ownership) error {
	_, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE `+key+` IN (
		(SELECT `+key+` FROM `+table+` WHERE owner = $1 AND protected = $2 ORDER BY `+order+` DESC, `+key+` OFFSET $3)
		UNION
		(SELECT `+key+` FROM `+table+` WHERE protected = $2 ORDER BY `+order+` DESC, `+key+` OFFSET $4))`,
		[]byte(o.Owner), o.Protected, max(o.PerOwner, 1), max(o.Max, 1))
	return err
}

// adding runs f in a transaction that holds lock, and commits it.
func (s *ScriptTokens) adding(what string, lock int64, f func(context.Context, pgx.Tx) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	err := pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, lock); err != nil {
			return err
		}
		return f(ctx, tx)
	})
	return wrap(s.db, what, err)
}

// KeepGrant implements script.BoundedTokenStore: the grant is kept, used now; the surplus
// grants go with their access tokens (the foreign key cascades).
func (s *ScriptTokens) KeepGrant(grant string, sealed []byte, o script.Ownership) error {
	return s.adding("keeping an issued grant", grantsLock, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO script_grants (digest, sealed, owner, protected, used)
			VALUES ($1, $2, $3, $4, statement_timestamp())
			ON CONFLICT (digest) DO UPDATE SET sealed = EXCLUDED.sealed, owner = EXCLUDED.owner,
				protected = EXCLUDED.protected, used = EXCLUDED.used`, grant, sealed, []byte(o.Owner), o.Protected); err != nil {
			return err
		}
		return surplus(ctx, tx, "script_grants", "digest", "used", o)
	})
}

// KeepAccess implements script.BoundedTokenStore: the grant's row, marked used, is locked
// while its access token is added and its oldest past perGrant are deleted, so that two
// replicas issuing from one grant at once keep perGrant in all. A grant no longer kept keeps
// nothing, as PutAccess.
func (s *ScriptTokens) KeepAccess(grant, access string, sealed []byte, perGrant int) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	err := pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		var one int
		err := tx.QueryRow(ctx, `UPDATE script_grants SET used = statement_timestamp() WHERE digest = $1 RETURNING 1`, grant).Scan(&one)
		if errors.Is(err, pgx.ErrNoRows) { // revoked or evicted meanwhile
			return nil
		}
		if err != nil {
			return err
		}
		b := &pgx.Batch{}
		b.Queue(`INSERT INTO script_access (digest, grant_digest, sealed) VALUES ($1, $2, $3)
			ON CONFLICT (digest) DO UPDATE SET sealed = EXCLUDED.sealed`, access, grant, sealed)
		b.Queue(`DELETE FROM script_access WHERE digest IN (
			SELECT digest FROM script_access WHERE grant_digest = $1 ORDER BY seq DESC OFFSET $2)`, grant, max(perGrant, 1))
		return tx.SendBatch(ctx, b).Close()
	})
	return wrap(s.db, "keeping an issued access token", err)
}

// KeepCode implements script.BoundedTokenStore: the expired codes go, then the code is kept
// and the surplus codes go, most recently issued kept (codes all live as long, so the latest
// to expire are the latest issued).
func (s *ScriptTokens) KeepCode(code string, sealed []byte, expires time.Time, o script.Ownership) error {
	return s.adding("keeping an authorization code", codesLock, func(ctx context.Context, tx pgx.Tx) error {
		b := &pgx.Batch{}
		b.Queue(`DELETE FROM script_codes WHERE expires < statement_timestamp()`)
		b.Queue(`INSERT INTO script_codes (digest, sealed, expires, owner, protected) VALUES ($1, $2, $3, $4, $5)`,
			code, sealed, expires, []byte(o.Owner), o.Protected)
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		return surplus(ctx, tx, "script_codes", "digest", "expires", o)
	})
}

// AnswerConsent implements script.BoundedTokenStore: the expired records go, then the
// request's is added unless it is there (answered before, on any replica), and the surplus
// records go.
func (s *ScriptTokens) AnswerConsent(digest string, expires time.Time, o script.Ownership) (bool, error) {
	first := false
	err := s.adding("recording a consent answered", consentsLock, func(ctx context.Context, tx pgx.Tx) error {
		first = false
		if _, err := tx.Exec(ctx, `DELETE FROM script_consents WHERE expires < statement_timestamp()`); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO script_consents (digest, owner, protected, expires) VALUES ($1, $2, $3, $4)
			ON CONFLICT (digest) DO NOTHING`, digest, []byte(o.Owner), o.Protected, expires)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		first = true
		return surplus(ctx, tx, "script_consents", "digest", "expires", o)
	})
	return first, err
}
