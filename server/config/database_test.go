package config

import (
	"strings"
	"testing"
)

// TestDatabase: server.database takes a postgres:// URL from the file or LOUPE_DATABASE_URL
// (which wins); anything else stops the start naming the key, without the password.
func TestDatabase(t *testing.T) {
	for _, c := range []struct {
		name, file string
		env        map[string]string
		want       string // the Database; or, with err, what the error says
		err        bool
	}{
		{"none", "", nil, "", false},
		{"file", "server:\n  database: postgres://loupe:pw@db:5432/loupe\n", nil, "postgres://loupe:pw@db:5432/loupe", false},
		{"postgresql scheme", "server:\n  database: postgresql://db/loupe\n", nil, "postgresql://db/loupe", false},
		{"unix socket", "server:\n  database: postgres:///loupe?host=/run/postgresql\n", nil, "postgres:///loupe?host=/run/postgresql", false},
		{"env wins", "server:\n  database: postgres://a/x\n", map[string]string{"LOUPE_DATABASE_URL": "postgres://b/y"}, "postgres://b/y", false},
		{"not postgres", "server:\n  database: mysql://root:hunter2@db/loupe\n", nil, "server.database: expected a PostgreSQL URL", true},
		{"no host", "server:\n  database: postgres://\n", nil, "server.database: expected the database's host", true},
		{"key value form", "server:\n  database: host=db password=hunter2\n", nil, "server.database: expected a PostgreSQL URL", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := Parse([]byte(c.file), "loupe.yaml", envMap(c.env))
			switch {
			case c.err && err == nil:
				t.Fatalf("got %q; want an error saying %q", cfg.Server.Database, c.want)
			case c.err:
				if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "hunter2") {
					t.Errorf("got %v; want %q, without the password", err, c.want)
				}
			case err != nil:
				t.Fatal(err)
			case cfg.Server.Database != c.want:
				t.Errorf("got %q; want %q", cfg.Server.Database, c.want)
			}
		})
	}
}
