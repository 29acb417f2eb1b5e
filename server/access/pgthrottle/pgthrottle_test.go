package pgthrottle

import (
	"context"
	"testing"
	"time"

	"loupe/server/access"
	"loupe/server/access/throttletest"
	"loupe/server/internal/pgdb"
	"loupe/server/testenv/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestPGThrottle runs the shared Throttle table against PostgreSQL.
func TestPGThrottle(t *testing.T) {
	throttletest.Run(t, func(t *testing.T, d access.Delays, maxAnonymous int) access.Throttle {
		return New(pgtest.Open(t), d, maxAnonymous)
	})
}

// TestReplicasCountAsOne: a guesser alternating between two throttles on one database (two
// replicas) waits as after all its failures on one, and the bound holds over both.
func TestReplicasCountAsOne(t *testing.T) {
	db := pgtest.Open(t)
	replicas := []*Throttle{New(db, access.DefaultDelays, 5), New(db, access.DefaultDelays, 5)}
	now := time.Unix(1e9, 0)
	for i := range 8 {
		now = now.Add(time.Millisecond)
		replicas[i%2].Failed("address:203.0.113.9", false, now)
	}
	for i, th := range replicas {
		if got, want := th.Wait("address:203.0.113.9", now), access.DefaultDelays.After(8); got != want {
			t.Errorf("replica %d after 8 failures spread over both: got wait %v; want %v", i, got, want)
		}
	}
	for i := range 20 {
		now = now.Add(time.Millisecond)
		replicas[i%2].Failed("address:"+string(rune('a'+i)), false, now)
	}
	if anon, prot, err := replicas[0].Len(context.Background()); err != nil || anon != 5 || prot != 0 {
		t.Errorf("keys after 21 addresses failed over both: got %d anonymous, %d protected, %v; want 5, 0", anon, prot, err)
	}
}

// TestDatabaseAway: with the database stopped, WaitChecked and FailedChecked fail with an
// error saying the database cannot be reached (the gate answers 503), not "no wait".
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
	th := New(db, access.DefaultDelays, 10)
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if d, err := th.WaitChecked("address:a", time.Now()); err == nil {
		t.Errorf("WaitChecked with the database stopped: got %v and no error; want an error", d)
	}
	if err := th.FailedChecked("address:a", false, time.Now()); err == nil {
		t.Error("FailedChecked with the database stopped: got no error; want one")
	}
}
