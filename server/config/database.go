package config

import (
	"fmt"
	"net/url"
	"strings"
)

// validateDatabase checks server.database: empty, or a postgres:// (postgresql://) URL. That
// the database answers, takes the password and has a schema this Loupe knows is checked when
// the server opens it (server/internal/pgdb), which stops the start with what to fix.
func validateDatabase(db string) error {
	if db == "" {
		return nil
	}
	u, err := url.Parse(db)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") || u.Opaque != "" {
		got := "a value that is not a URL (not shown: it may hold a password)"
		if err == nil && u.Scheme != "" && strings.Contains(db, "://") {
			got = fmt.Sprintf("%q", redactURL(db))
		}
		return errKey("server.database", "expected a PostgreSQL URL such as postgres://loupe:PASSWORD@db.example.com:5432/loupe, got %s", got)
	}
	if u.Host == "" && !strings.Contains(u.RawQuery, "host=") {
		return errKey("server.database", "expected the database's host in the URL (postgres://user:password@HOST:5432/name), got %q", redactURL(db))
	}
	return nil
}
