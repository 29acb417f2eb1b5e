package serverdb

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// open opens the database in dir at now, its sessions with it; closed at the test's end.
func open(t *testing.T, dir string, now time.Time) (*DB, *Sessions) {
	t.Helper()
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	s, err := d.Sessions(now)
	if err != nil {
		t.Fatal(err)
	}
	return d, s
}

func TestSessionsSurviveReopening(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	d, s := open(t, dir, now)
	alice, err := s.Create("alice", now.Add(time.Hour))
	if err != nil || len(alice) < 22 {
		t.Fatalf("Create: %q, %v; want an ID of 128 bits or more", alice, err)
	}
	bob, _ := s.Create("bob", now.Add(time.Hour))
	short, _ := s.Create("carol", now.Add(time.Minute))
	gone, _ := s.Create("dave", now.Add(time.Hour))
	s.Delete(gone)
	raw, _ := os.ReadFile(filepath.Join(dir, FileName))
	if bytes.Contains(raw, []byte(alice)) {
		t.Error("the file holds a session ID; want only its digest")
	}
	d.Close()

	_, s = open(t, dir, now.Add(2*time.Minute)) // carol's session expired meanwhile
	for _, tt := range []struct {
		name, id string
		at       time.Time
		want     string
	}{
		{"valid", alice, now, "alice"},
		{"another user's", bob, now, "bob"},
		{"expired while closed", short, now, ""},
		{"logged out", gone, now, ""},
		{"expired", alice, now.Add(2 * time.Hour), ""},
		{"unknown", "x" + bob[1:], now, ""},
		{"empty", "", now, ""},
	} {
		if got, _ := s.Lookup(tt.id, tt.at); got != tt.want {
			t.Errorf("%s: got %q; want %q", tt.name, got, tt.want)
		}
	}
	if s.n != 1 { // alice's ended by the lookup past its end; bob's stays
		t.Errorf("got %d sessions stored; want 1", s.n)
	}
}

// TestStoredSessionsPerUserBounded: as in memory, a user keeps their most recent sessions and
// nobody else's is touched.
func TestStoredSessionsPerUserBounded(t *testing.T) {
	now := time.Now()
	_, s := open(t, t.TempDir(), now)
	bob, _ := s.Create("bob", now.Add(time.Hour))
	var ids []string
	for range 3 * MaxSessionsPerUser {
		id, err := s.Create("alice", now.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if _, ok := s.Lookup(ids[0], now); ok {
		t.Error("alice's first session is still there; want her oldest ended past the bound")
	}
	if _, ok := s.Lookup(ids[len(ids)-MaxSessionsPerUser], now); !ok {
		t.Error("alice's oldest session within the bound is gone")
	}
	if _, ok := s.Lookup(bob, now); !ok {
		t.Error("bob's session is gone after alice's logins")
	}
	if s.n != MaxSessionsPerUser+1 {
		t.Errorf("got %d sessions stored; want %d", s.n, MaxSessionsPerUser+1)
	}
}
