package pgstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"loupe/server/internal/clientip"
	"loupe/server/sandbox/state"
	"loupe/server/testenv/pgtest"
)

// boundedReplica is one Loupe process's registry, with limits lim and clock now, and its API,
// over its own connection pool to the database at url.
func boundedReplica(t *testing.T, url string, lim state.Limits, now func() time.Time) *state.API[*counter] {
	t.Helper()
	st, err := Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	reg := state.NewRegistry(st, state.Options{Limits: lim, Now: now})
	return state.NewAPI(reg, "x", func(_ string, es []state.Entry) (*counter, error) {
		c := &counter{}
		for _, e := range es {
			if e.Key == "n" {
				c.n = string(e.Value)
			}
		}
		return c, nil
	}).Share(func() (*counter, error) { return &counter{}, nil })
}

// anonymous is the context of anonymous session i of client.
func anonymous(client string, i int) context.Context {
	return clientip.With(state.WithSession(context.Background(), fmt.Sprintf("anon:%s-%d", client, i)), client)
}

// storedSessions counts the sessions holding changes whose ID starts with prefix.
func storedSessions(t *testing.T, st *Store, prefix string) int {
	t.Helper()
	var n int
	if err := st.DB().Pool.QueryRow(context.Background(), `SELECT count(DISTINCT session) FROM sandbox_changes
		WHERE substring(session FROM 1 FOR length($1::bytea)) = $1::bytea`, []byte(prefix)).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestBoundsHoldAcrossReplicas: two replicas on one database, 10 stored sessions per client
// and 30 anonymous ones in all. A flood from one client spread over both leaves that client 10
// sessions with changes in total (its most recent), not 10 per replica; a flood from many
// clients leaves 30 in all; a signed-in user's session (from the flooding address even) and
// its changes survive both; a session one replica held live and the other evicted reads as the
// seed on the first.
func TestBoundsHoldAcrossReplicas(t *testing.T) {
	url := pgtest.DB(t)
	lim := state.Limits{MaxSessionsPerClient: 1, MaxStored: 30}
	reps := []*state.API[*counter]{boundedReplica(t, url, lim, nil), boundedReplica(t, url, lim, nil)}
	st := reps[0].Registry().Store().(*Store)
	user := clientip.With(state.WithSession(context.Background(), state.UserSession("ada")), "203.0.113.9")
	if err := set(user, reps[0], "mine"); err != nil {
		t.Fatal(err)
	}
	early := anonymous("198.51.100.7", 0)
	if err := set(early, reps[1], "early"); err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		if err := set(anonymous("203.0.113.9", i), reps[i%2], "v"); err != nil {
			t.Fatalf("flood %d: %v", i, err)
		}
	}
	if got := storedSessions(t, st, "anon:203.0.113.9-"); got != 10 {
		t.Errorf("one client's 100 sessions over two replicas: got %d holding changes; want 10 in total", got)
	}
	for i := 90; i < 100; i++ {
		if got := read(t, anonymous("203.0.113.9", i), reps[(i+1)%2]); got != "v" {
			t.Errorf("the client's session %d (one of its 10 most recent), read on the other replica: got %q; want v", i, got)
		}
	}
	if got := read(t, early, reps[0]); got != "early" {
		t.Errorf("another client's session after one client's flood: got %q; want early (kept)", got)
	}
	for i := range 100 {
		if err := set(anonymous(fmt.Sprintf("100.64.0.%d", i), 0), reps[i%2], "v"); err != nil {
			t.Fatalf("many clients %d: %v", i, err)
		}
	}
	if got := storedSessions(t, st, "anon:"); got != 30 {
		t.Errorf("after 100 clients over two replicas: got %d anonymous sessions holding changes; want 30 in total", got)
	}
	if anon, prot, err := st.StoredSessions(context.Background()); err != nil || anon != 30 || prot != 1 {
		t.Errorf("the bounds' records: got %d anonymous, %d protected, %v; want 30 and 1", anon, prot, err)
	}
	if got := read(t, early, reps[1]); got != "" {
		t.Errorf("the early session, live on replica 1 and evicted by the flood: got %q; want the seed", got)
	}
	for i, r := range reps {
		if got := read(t, user, r); got != "mine" {
			t.Errorf("the signed-in user on replica %d after both floods: got %q; want mine", i, got)
		}
	}
}

// TestClaimsTouchAtMostEveryClaimEvery: a session's first change records it; later changes
// within ClaimEvery (a minute) write nothing more; one past it touches the session, which then
// counts as recently used: the least recently used session goes instead.
func TestClaimsTouchAtMostEveryClaimEvery(t *testing.T) {
	url := pgtest.DB(t)
	var mu sync.Mutex
	clock := time.Unix(2e9, 0)
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	advance := func(d time.Duration) { mu.Lock(); clock = clock.Add(d); mu.Unlock() }
	api := boundedReplica(t, url, state.Limits{MaxSessionsPerClient: 10, MaxStored: 3}, now)
	st := api.Registry().Store().(*Store)
	used := func(i int) time.Time {
		t.Helper()
		var at time.Time
		if err := st.DB().Pool.QueryRow(context.Background(), `SELECT used FROM sandbox_sessions WHERE session = $1`,
			[]byte(fmt.Sprintf("anon:c%d-0", i))).Scan(&at); err != nil {
			t.Fatal(err)
		}
		return at
	}
	for i := range 3 {
		if err := set(anonymous(fmt.Sprintf("c%d", i), 0), api, "v"); err != nil {
			t.Fatal(err)
		}
	}
	first := used(0)
	advance(30 * time.Second)
	if err := set(anonymous("c0", 0), api, "w"); err != nil {
		t.Fatal(err)
	}
	if got := used(0); !got.Equal(first) {
		t.Errorf("a change 30 s after the claim: used moved from %v to %v; want no write", first, got)
	}
	advance(31 * time.Second)
	if err := set(anonymous("c0", 0), api, "x"); err != nil {
		t.Fatal(err)
	}
	if got := used(0); !got.After(first) {
		t.Errorf("a change 61 s after the claim: used %v; want touched past %v", got, first)
	}
	if err := set(anonymous("c3", 0), api, "v"); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"x", "", "v", "v"} {
		if got := read(t, anonymous(fmt.Sprintf("c%d", i), 0), api); got != want {
			t.Errorf("session c%d after a fourth past a bound of 3: got %q; want %q (c1 least recently used)", i, got, want)
		}
	}
}

// TestBoundsUnderConcurrentFloods: eight writers at once, four per replica, half of them one
// client's and half many clients': no change fails but for a 409 sent again (claims evicting
// at once neither deadlock nor fail), and the bounds hold once they are done.
func TestBoundsUnderConcurrentFloods(t *testing.T) {
	url := pgtest.DB(t)
	lim := state.Limits{MaxSessionsPerClient: 4, MaxStored: 60}
	reps := []*state.API[*counter]{boundedReplica(t, url, lim, nil), boundedReplica(t, url, lim, nil)}
	st := reps[0].Registry().Store().(*Store)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				ctx := anonymous("203.0.113.9", w*100+i)
				if w%2 == 1 {
					ctx = anonymous(fmt.Sprintf("100.64.%d.%d", w, i), 0)
				}
				err := set(ctx, reps[w/2%2], "v")
				for try := 0; try < 3 && errors.Is(err, state.ErrConflict); try++ {
					// The client's other writer on this replica made its 5th live session
					// between this one's Get and ApplyTo (the live table's bound per
					// client): the 409 says to send again.
					err = set(ctx, reps[w/2%2], "v")
				}
				if err != nil {
					t.Errorf("writer %d, change %d: %v", w, i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if got := storedSessions(t, st, "anon:203.0.113.9-"); got > 40 {
		t.Errorf("one client's 200 sessions, written at once over two replicas: got %d holding changes; want at most 40", got)
	}
	if got := storedSessions(t, st, "anon:"); got > 60 {
		t.Errorf("400 sessions written at once over two replicas: got %d anonymous holding changes; want at most 60", got)
	}
	if anon, _, err := st.StoredSessions(context.Background()); err != nil || anon != storedSessions(t, st, "anon:") {
		t.Errorf("the bounds record %d anonymous sessions, %v; want as many as hold changes", anon, err)
	}
}
