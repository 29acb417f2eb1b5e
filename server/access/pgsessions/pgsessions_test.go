package pgsessions

import (
	"context"
	"strings"
	"testing"
	"time"

	"loupe/server/access"
	"loupe/server/access/sessiontest"
	"loupe/server/internal/pgdb"
	"loupe/server/testenv/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestPGSessionStore runs the shared SessionStore table against PostgreSQL.
func TestPGSessionStore(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T) access.SessionStore { return New(pgtest.Open(t)) })
}

// TestSharedAcrossReplicas: two stores on one database (two replicas): a login made on one
// holds on the other, a logout on the other ends it on both.
func TestSharedAcrossReplicas(t *testing.T) {
	db := pgtest.Open(t)
	a, b := New(db), New(db)
	now := time.Now()
	id, err := a.Create("alice", now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if user, ok, err := b.LookupChecked(id, now); user != "alice" || !ok || err != nil {
		t.Fatalf("B looks up A's login: got %q, %v, %v; want alice", user, ok, err)
	}
	if err := b.DeleteChecked(id); err != nil {
		t.Fatal(err)
	}
	if user, ok, err := a.LookupChecked(id, now); ok || err != nil {
		t.Errorf("A after B's logout: got %q, %v, %v; want no session", user, ok, err)
	}
}

// TestDatabaseAway: with the database stopped, a lookup and a logout fail with an error that
// says the database cannot be reached (the gate answers 503), not "no session"; once it is
// back, the login made before is still valid.
func TestDatabaseAway(t *testing.T) {
	c := pgtest.New(t)
	url, err := c.CreateDB(context.Background(), "loupe")
	if err != nil {
		t.Fatal(err)
	}
	db, err := pgdb.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := New(db)
	now := time.Now()
	id, err := s.Create("alice", now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.LookupChecked(id, now); err == nil {
		t.Errorf("lookup with the database away: got no error; want one")
	} else if want := "check that PostgreSQL runs there"; !contains(err.Error(), want) {
		t.Errorf("lookup with the database away: got %v; want %q", err, want)
	}
	if err := s.DeleteChecked(id); err == nil {
		t.Errorf("logout with the database away: got no error; want one")
	}
	if _, err := s.Create("bob", now.Add(time.Hour)); err == nil {
		t.Errorf("login with the database away: got no error; want one")
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	// The same pool reconnects: the login made before is still valid, and logins work again.
	if user, ok, err := s.LookupChecked(id, now); user != "alice" || !ok || err != nil {
		t.Errorf("after the database is back: got %q, %v, %v; want alice's login kept", user, ok, err)
	}
	if _, err := s.Create("bob", now.Add(time.Hour)); err != nil {
		t.Errorf("login after the database is back: %v", err)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
