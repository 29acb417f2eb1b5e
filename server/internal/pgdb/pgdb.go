// Package pgdb opens Loupe's shared PostgreSQL database (server.database): a pgx connection pool
// (github.com/jackc/pgx/v5/pgxpool, the maintained pure-Go driver) whose schema is brought to
// this Loupe's version at start (migrate.go). Its errors say what to fix: an address that does
// not parse, a database that cannot be reached, a password refused, a schema from a newer
// Loupe. Errors at run time that mean the database went away are told apart (Unavailable) so
// that callers answer 503.
package pgdb

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Key names the setting in every message, with its environment variable.
const Key = "server.database (LOUPE_DATABASE_URL)"

// ConnectTimeout bounds one connection attempt when the address does not set connect_timeout.
const ConnectTimeout = 5 * time.Second

// MaxConns is how many connections one replica opens at most when the address does not set
// pool_max_conns: every sandbox call holds one for a query or a transaction, and PostgreSQL's
// default max_connections (100) leaves room for five replicas.
const MaxConns = 20

// DB is the open database: its pool, and where it is for logs.
type DB struct {
	// Pool is the connection pool, shared by every store on the database.
	Pool *pgxpool.Pool
	// Where names the database without its password: postgres://user@host:port/name.
	Where string
}

// Open connects to the database at url, checks that it answers, and migrates its schema
// (Migrate). The error says what to fix, naming Key; it never holds the password.
func Open(ctx context.Context, url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("%s: expected a PostgreSQL address such as postgres://loupe:PASSWORD@db.example.com:5432/loupe: %s", Key, parseProblem(err))
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = ConnectTimeout
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = MaxConns // pgx's default, 4 on two cores, queues a busy replica's calls
	}
	cc := cfg.ConnConfig
	db := &DB{Where: fmt.Sprintf("postgres://%s@%s/%s", cc.User, net.JoinHostPort(cc.Host, strconv.Itoa(int(cc.Port))), cc.Database)}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", Key, Explain(err, db.Where))
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("%s: %s", Key, Explain(err, db.Where))
	}
	if err := Migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("%s: %w", Key, err)
	}
	db.Pool = pool
	return db, nil
}

// Close closes the pool.
func (db *DB) Close() { db.Pool.Close() }

// parseProblem is what a parse error says, without the address it quotes (which may hold the
// password).
func parseProblem(err error) string {
	var pe *pgconn.ParseConfigError
	if errors.As(err, &pe) && pe.Unwrap() != nil {
		return pe.Unwrap().Error()
	}
	return "it does not parse"
}

// Explain says, for a person, what an error connecting to the database at where means and
// what to do.
func Explain(err error, where string) string {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		switch pg.Code {
		case "28P01", "28000": // invalid_password, invalid_authorization_specification
			return fmt.Sprintf("the database at %s refused the user name or password (%s): check them in the address", where, pg.Message)
		case "3D000": // invalid_catalog_name
			return fmt.Sprintf("the database at %s does not exist (%s): create it (createdb), or name an existing one in the address", where, pg.Message)
		case "42501": // insufficient_privilege
			return fmt.Sprintf("the user of %s may not do what Loupe needs (%s): grant it CREATE on the database, or use its owner", where, pg.Message)
		}
		if Unavailable(err) {
			return fmt.Sprintf("cannot use the database at %s now (%s, SQLSTATE %s): check that PostgreSQL runs there and accepts connections", where, pg.Message, pg.Code)
		}
		return fmt.Sprintf("the database at %s answered: %s (SQLSTATE %s)", where, pg.Message, pg.Code)
	}
	return fmt.Sprintf("cannot reach the database at %s (%s): check that PostgreSQL runs there and that the host and port in the address are right", where, cause(err))
}

// cause is the innermost error's text: the network's own words (connection refused, no such
// host, i/o timeout), without pgx's prefix that repeats the address.
func cause(err error) string {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err.Error()
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return dns.Error()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "no answer in time"
	}
	for u := errors.Unwrap(err); u != nil; u = errors.Unwrap(u) {
		err = u
	}
	return err.Error()
}

// Unavailable reports whether err, from a query, means the database cannot be used right now
// (it went away, refuses connections, is shutting down or out of resources) rather than a
// mistake in the query: the caller answers 503 and may be retried.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		switch pg.Code[:2] {
		case "08", "53", "57", "58": // connection, resources, operator intervention, system
			return true
		}
		return false
	}
	return true // no answer from the server at all: a network or pool error, or a timeout
}
