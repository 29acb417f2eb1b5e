package server

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"loupe/server/config"
	"loupe/server/testenv/pgtest"
)

// TestDatabaseStart: with server.database, a database that cannot be reached, a wrong
// password, a missing database, a schema from a newer Loupe and no shared secret key each stop the start with a
// message naming the key and saying what to fix, never the password; a good one starts, and
// the start log names the store without the password.
func TestDatabaseStart(t *testing.T) {
	c := pgtest.Shared(t)
	good := pgtest.DB(t)
	newer := pgtest.DB(t)
	bumpSchema(t, newer)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	for _, tc := range []struct {
		name, url string
		want      []string // in the error; none: the start succeeds
		noKey     bool     // no secret key given
	}{
		{"unreachable", "postgres://loupe:" + pgtest.Password + "@" + closed + "/loupe?sslmode=disable",
			[]string{"server.database (LOUPE_DATABASE_URL)", "cannot reach the database at postgres://loupe@" + closed + "/loupe", "check that PostgreSQL runs there"}, false},
		{"wrong password", strings.Replace(good, pgtest.Password, "not-the-password", 1),
			[]string{"server.database (LOUPE_DATABASE_URL)", "refused the user name or password", "check them in the address"}, false},
		{"missing database", fmt.Sprintf("postgres://loupe:%s@127.0.0.1:%d/nowhere?sslmode=disable", pgtest.Password, c.Port),
			[]string{"server.database (LOUPE_DATABASE_URL)", "does not exist", "create it"}, false},
		{"schema from a newer Loupe", newer,
			[]string{"server.database (LOUPE_DATABASE_URL)", "schema is from a newer Loupe (version 99", "upgrade Loupe"}, false},
		{"no secret key", good, []string{"server.database is set", "same secret key", "server.secret_key", "LOUPE_SECRET_KEY", "openssl rand"}, true},
		{"good", good, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := replicaEnv(tc.url)
			if tc.noKey {
				env = func(k string) (string, bool) { return tc.url, k == "LOUPE_DATABASE_URL" }
			}
			settings, err := config.Parse(nil, "", env)
			if err != nil {
				t.Fatal(err)
			}
			logs := &syncBuffer{}
			srv, err := New(Config{Settings: settings, Logger: slog.New(slog.NewTextHandler(logs, nil))})
			if tc.want == nil {
				if err != nil {
					t.Fatalf("got %v; want a start", err)
				}
				srv.Close()
				if want := fmt.Sprintf(`store="postgresql postgres://loupe@127.0.0.1:%d/`, c.Port); !strings.Contains(logs.String(), want) {
					t.Errorf("start log: got %s; want %s", logs, want)
				}
				if strings.Contains(logs.String(), pgtest.Password) {
					t.Errorf("start log holds the password: %s", logs)
				}
				return
			}
			if err == nil {
				srv.Close()
				t.Fatalf("got a start; want an error saying %q", tc.want)
			}
			t.Log(err)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got %v; want it to say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), pgtest.Password) || strings.Contains(err.Error(), "not-the-password") {
				t.Errorf("the error holds the password: %v", err)
			}
		})
	}
}

// bumpSchema migrates the database at url, then marks its schema as a newer Loupe's (99).
func bumpSchema(t *testing.T, url string) {
	t.Helper()
	ctx := context.Background()
	settings, _ := config.Parse(nil, "", func(k string) (string, bool) { return url, k == "LOUPE_DATABASE_URL" })
	reg, _, err := newRegistry(settings.Server, nil)
	if err != nil {
		t.Fatal(err)
	}
	reg.Store().Close()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `UPDATE schema_version SET version = 99`); err != nil {
		t.Fatal(err)
	}
}
