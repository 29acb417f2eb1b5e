package pgslots

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"loupe/server/testenv/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// replica opens Slots on url as one replica would.
func replica(t *testing.T, url string, maxRuns, perUser int) *Slots {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(context.Background(), cfg, maxRuns, perUser)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func take(t *testing.T, s *Slots, user string) (func(), bool) {
	t.Helper()
	release, ok, err := s.Take(context.Background(), user)
	if err != nil {
		t.Fatal(err)
	}
	return release, ok
}

// TestSlotsHoldAcrossReplicas: a user's slots are one count for two replicas; another user is
// not affected; a slot given back on one replica can be taken on the other.
func TestSlotsHoldAcrossReplicas(t *testing.T) {
	url := pgtest.DB(t)
	a, b := replica(t, url, 4, 2), replica(t, url, 4, 2)
	relA, ok1 := take(t, a, "ada")
	_, ok2 := take(t, b, "ada")
	if !ok1 || !ok2 {
		t.Fatalf("ada's two slots on two replicas: got %v, %v; want both taken", ok1, ok2)
	}
	if _, ok := take(t, a, "ada"); ok {
		t.Fatal("ada's third run, on replica a: got a slot; want none (two per user, across replicas)")
	}
	if _, ok := take(t, b, "ada"); ok {
		t.Fatal("ada's third run, on replica b: got a slot; want none")
	}
	if _, ok := take(t, b, "grace"); !ok {
		t.Fatal("grace's first run: got no slot; want one (slots are per user)")
	}
	relA()
	relA() // twice does nothing
	if _, ok := take(t, b, "ada"); !ok {
		t.Fatal("after a gave one back, ada's run on b: got no slot; want one")
	}
	if _, ok := take(t, a, "ada"); ok {
		t.Fatal("the slot given back was taken twice")
	}
}

// TestADeadReplicaGivesItsSlotsBack: the connections of a replica that ends (here its pool
// closes, as a killed process's connections do) end its locks.
func TestADeadReplicaGivesItsSlotsBack(t *testing.T) {
	url := pgtest.DB(t)
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	dying, err := New(context.Background(), cfg, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := take(t, dying, "ada"); !ok {
		t.Fatal("no slot on the first replica")
	}
	other := replica(t, url, 2, 1)
	if _, ok := take(t, other, "ada"); ok {
		t.Fatal("ada's slot held on the first replica was taken on the other")
	}
	dying.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, ok := take(t, other, "ada"); ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("ada's slot was not given back 5 s after its replica's connections ended")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestDatabaseGoneIsAnError(t *testing.T) {
	c := pgtest.New(t)
	url, err := c.CreateDB(context.Background(), "gone")
	if err != nil {
		t.Fatal(err)
	}
	s := replica(t, url, 2, 1)
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, ok, err := s.Take(ctx, "ada"); err == nil {
		t.Fatalf("with the database stopped: got ok=%v and no error; want an error", ok)
	}
}

func TestNewRefusesNoSlots(t *testing.T) {
	cfg, _ := pgxpool.ParseConfig("postgres://u@127.0.0.1:1/db")
	for _, tt := range []struct{ max, per int }{{0, 1}, {1, 0}} {
		if _, err := New(context.Background(), cfg, tt.max, tt.per); err == nil {
			t.Errorf("New(%d, %d): got no error; want one", tt.max, tt.per)
		}
	}
}
