package pgdb

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// migrations are the schema's steps, in order: migrations[i] brings version i to i+1. A step
// is never changed once released; a new one is appended.
var migrations = []string{
	// 1: the sandboxes' stored changes (server/sandbox/state/pgstore), keyed bytewise like
	// bbolt's buckets, and the generation of each (session, api) that holds changes: a number
	// from one sequence, new at every change, so that replicas know when their live copy is
	// stale; no row means no change since the seed.
	`CREATE TABLE sandbox_changes (
		session bytea NOT NULL,
		api     bytea NOT NULL,
		key     bytea NOT NULL,
		value   bytea NOT NULL,
		PRIMARY KEY (session, api, key)
	);
	CREATE TABLE sandbox_generations (
		session    bytea  NOT NULL,
		api        bytea  NOT NULL,
		generation bigint NOT NULL,
		PRIMARY KEY (session, api)
	);
	CREATE SEQUENCE sandbox_generation;`,
	// 2: the login sessions of access mode users (server/access), so that a login made on one
	// replica holds on every other and a logout ends it everywhere.
	`CREATE TABLE login_sessions (
		id       text        PRIMARY KEY,
		username text        NOT NULL,
		expires  timestamptz NOT NULL,
		seq      bigint      GENERATED ALWAYS AS IDENTITY
	);
	CREATE INDEX login_sessions_user ON login_sessions (username, seq);
	CREATE INDEX login_sessions_expires ON login_sessions (expires);`,
	// 3: the proxy's token buckets (server/internal/pgrate), so that a user's rate holds
	// across replicas; anonymous buckets are swept oldest first, hence the partial index.
	`CREATE TABLE rate_buckets (
		key       text             PRIMARY KEY,
		tokens    double precision NOT NULL,
		at        timestamptz      NOT NULL,
		signed_in boolean          NOT NULL
	);
	CREATE INDEX rate_buckets_anonymous_at ON rate_buckets (at) WHERE NOT signed_in;`,
	// 4: the users' OAuth grants (server/oauth) and the script sandbox's issued grants and
	// access tokens (server/sandbox/script), sealed under keys derived from the secret key
	// (server/internal/pgoauth), so that every replica signs in with, and accepts, the same
	// ones. An access token goes with its grant.
	`CREATE TABLE oauth_grants (
		username text  NOT NULL,
		api      text  NOT NULL,
		sealed   bytea NOT NULL,
		PRIMARY KEY (username, api)
	);
	CREATE TABLE script_grants (
		digest text  PRIMARY KEY,
		sealed bytea NOT NULL
	);
	CREATE TABLE script_access (
		digest       text  PRIMARY KEY,
		grant_digest text  NOT NULL REFERENCES script_grants (digest) ON DELETE CASCADE,
		sealed       bytea NOT NULL
	);
	CREATE INDEX script_access_grant ON script_access (grant_digest);`,
	// 5: the script sandbox's authorization codes (server/internal/pgoauth), sealed, so that a
	// code issued on one replica is redeemed on another, once across all of them.
	`CREATE TABLE script_codes (
		digest  text        PRIMARY KEY,
		sealed  bytea       NOT NULL,
		expires timestamptz NOT NULL,
		used    boolean     NOT NULL DEFAULT false
	);
	CREATE INDEX script_codes_expires ON script_codes (expires);`,
	// 6: the login throttle's failures (server/access/pgthrottle), so that a guesser spreading
	// wrong passwords over the replicas waits as long as on one. Anonymous keys (client
	// addresses) are evicted least recently failed first, hence the partial index; every key
	// is forgotten a quiet spell after its last failure, hence the other. Keys are bytea: a
	// trusted browser's holds a NUL byte, which text refuses.
	`CREATE TABLE login_failures (
		key       bytea       PRIMARY KEY,
		failures  integer     NOT NULL,
		last      timestamptz NOT NULL,
		until     timestamptz NOT NULL,
		protected boolean     NOT NULL
	);
	CREATE INDEX login_failures_anonymous_last ON login_failures (last) WHERE NOT protected;
	CREATE INDEX login_failures_last ON login_failures (last);`,
	// 7: the sandbox sessions that hold stored changes (server/sandbox/state/pgstore's Claim),
	// with their client, whether they are a signed-in user's, and when they were last used,
	// so that the bound on the anonymous ones (in total and per client) holds across the
	// replicas. The sessions already holding changes are recorded as used now, each its own
	// client.
	`CREATE TABLE sandbox_sessions (
		session   bytea       PRIMARY KEY,
		client    bytea       NOT NULL,
		protected boolean     NOT NULL,
		used      timestamptz NOT NULL
	);
	CREATE INDEX sandbox_sessions_anonymous_used ON sandbox_sessions (used) WHERE NOT protected;
	CREATE INDEX sandbox_sessions_client_used ON sandbox_sessions (client, used) WHERE NOT protected;
	INSERT INTO sandbox_sessions (session, client, protected, used)
		SELECT DISTINCT session, session, session = 'local'::bytea OR substring(session FROM 1 FOR 5) = 'user:'::bytea, now()
		FROM sandbox_generations;`,
	// 8: the script sandbox's authorization server's bounds across the replicas
	// (server/internal/pgoauth's KeepGrant, KeepAccess, KeepCode, AnswerConsent): who owns each
	// grant and code (a signed-in user's session, or an anonymous client's address) and whether
	// they are signed in, when a grant was last used, the order access tokens were issued in,
	// and the consent requests answered, so that a consent form is answered once across the
	// replicas. Grants and codes kept before are a signed-in user's (their owner is sealed, so
	// unknown here): never evicted for an anonymous one.
	`ALTER TABLE script_grants
		ADD COLUMN owner     bytea       NOT NULL DEFAULT ''::bytea,
		ADD COLUMN protected boolean     NOT NULL DEFAULT true,
		ADD COLUMN used      timestamptz NOT NULL DEFAULT now();
	CREATE INDEX script_grants_owner_used ON script_grants (owner, used);
	CREATE INDEX script_grants_kind_used ON script_grants (protected, used);
	ALTER TABLE script_access ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
	DROP INDEX script_access_grant;
	CREATE INDEX script_access_grant_seq ON script_access (grant_digest, seq);
	ALTER TABLE script_codes
		ADD COLUMN owner     bytea   NOT NULL DEFAULT ''::bytea,
		ADD COLUMN protected boolean NOT NULL DEFAULT true;
	CREATE INDEX script_codes_owner_expires ON script_codes (owner, expires);
	CREATE INDEX script_codes_kind_expires ON script_codes (protected, expires);
	CREATE TABLE script_consents (
		digest    text        PRIMARY KEY,
		owner     bytea       NOT NULL,
		protected boolean     NOT NULL,
		expires   timestamptz NOT NULL
	);
	CREATE INDEX script_consents_expires ON script_consents (expires);
	CREATE INDEX script_consents_owner_expires ON script_consents (owner, expires);
	CREATE INDEX script_consents_kind_expires ON script_consents (protected, expires);`,
}

// Version is the schema version this Loupe brings a database to.
func Version() int { return len(migrations) }

// migrateLock is the advisory lock that lets one replica migrate at a time.
const migrateLock = 0x4c6f757065 // "Loupe"

// ErrNewerSchema is the error of a database whose schema a newer Loupe made.
var ErrNewerSchema = errors.New("the database's schema is from a newer Loupe")

// Migrate brings the schema to Version in one transaction, under an advisory lock so that
// replicas starting together migrate once. A schema newer than Version (a newer Loupe used the
// database) is refused with ErrNewerSchema: this Loupe would misread it.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrateLock)); err != nil {
			return fmt.Errorf("migrating the schema: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
			only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
			version  integer NOT NULL)`); err != nil {
			return fmt.Errorf("migrating the schema: %w", err)
		}
		var v int
		err := tx.QueryRow(ctx, `SELECT version FROM schema_version`).Scan(&v)
		if errors.Is(err, pgx.ErrNoRows) {
			v = 0
			if _, err = tx.Exec(ctx, `INSERT INTO schema_version (version) VALUES (0)`); err != nil {
				return fmt.Errorf("migrating the schema: %w", err)
			}
		} else if err != nil {
			return fmt.Errorf("reading the schema version: %w", err)
		}
		if v > len(migrations) {
			return fmt.Errorf("%w (version %d; this Loupe knows up to %d): upgrade Loupe to the version the other replicas run, or point it at another database", ErrNewerSchema, v, len(migrations))
		}
		for i := v; i < len(migrations); i++ {
			if _, err := tx.Exec(ctx, migrations[i]); err != nil {
				return fmt.Errorf("migrating the schema to version %d: %w", i+1, err)
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE schema_version SET version = $1`, len(migrations)); err != nil {
			return fmt.Errorf("migrating the schema: %w", err)
		}
		return nil
	})
}
