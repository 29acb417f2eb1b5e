// Package sessiontest is the table test every access.SessionStore passes: the in-memory one
// (access) and the PostgreSQL one (access/pgsessions) run the same cases.
package sessiontest

import (
	"fmt"
	"testing"
	"time"

	"loupe/server/access"
)

// now is the clock of the cases.
var now = time.Unix(1e9, 0)

// Run runs the shared table against stores made by open (a fresh, empty store per case).
func Run(t *testing.T, open func(t *testing.T) access.SessionStore) {
	t.Run("lookup", func(t *testing.T) {
		s := open(t)
		id, err := s.Create("alice", now.Add(time.Hour))
		if err != nil || len(id) < 22 {
			t.Fatalf("Create: %q, %v; want an ID of 128 bits or more", id, err)
		}
		other, err := s.Create("bob", now.Add(time.Hour))
		if err != nil || other == id {
			t.Fatalf("Create bob: %q, %v; want a new ID", other, err)
		}
		for _, c := range []struct {
			name, id string
			at       time.Time
			want     string
		}{
			{"valid", id, now, "alice"},
			{"just before its end", id, now.Add(time.Hour - time.Millisecond), "alice"},
			{"at its end", id, now.Add(time.Hour), ""},
			{"expired", id, now.Add(2 * time.Hour), ""},
			{"unknown", "x" + id[1:], now, ""},
			{"empty", "", now, ""},
			{"odd", "'; DROP TABLE x; --\x00ü", now, ""},
			{"another user's", other, now, "bob"},
		} {
			if got, ok := s.Lookup(c.id, c.at); got != c.want || ok != (c.want != "") {
				t.Errorf("%s: got %q, %v; want %q", c.name, got, ok, c.want)
			}
		}
	})
	t.Run("delete", func(t *testing.T) {
		s := open(t)
		a, _ := s.Create("alice", now.Add(time.Hour))
		b, _ := s.Create("alice", now.Add(time.Hour))
		s.Delete(a)
		s.Delete("unknown")
		if got, ok := s.Lookup(a, now); ok {
			t.Errorf("after Delete: got %q; want the session gone", got)
		}
		if got, _ := s.Lookup(b, now); got != "alice" {
			t.Errorf("her other session: got %q; want alice (a logout ends one session)", got)
		}
	})
	t.Run("bounded per user", func(t *testing.T) {
		s := open(t)
		bob, _ := s.Create("bob", now.Add(time.Hour))
		var ids []string
		for i := range access.MaxSessionsPerUser + 5 {
			id, err := s.Create("alice", now.Add(time.Hour))
			if err != nil {
				t.Fatal(fmt.Errorf("login %d: %w", i, err))
			}
			ids = append(ids, id)
		}
		for i, id := range ids {
			_, ok := s.Lookup(id, now)
			if want := i >= 5; ok != want {
				t.Errorf("alice's login %d: got kept %v; want %v (her %d most recent kept)", i, ok, want, access.MaxSessionsPerUser)
			}
		}
		if _, ok := s.Lookup(bob, now); !ok {
			t.Error("bob's session is gone after alice's logins")
		}
	})
}
