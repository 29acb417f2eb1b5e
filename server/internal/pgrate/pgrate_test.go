package pgrate

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"loupe/server/internal/pgdb"
	"loupe/server/testenv/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// open returns the pool of a new database of the test cluster, migrated as Loupe does.
func open(t *testing.T) *pgxpool.Pool {
	t.Helper()
	return pgtest.Open(t).Pool
}

func openURL(t *testing.T, url string) *pgxpool.Pool {
	t.Helper()
	db, err := pgdb.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Pool.Close)
	return db.Pool
}

func newBuckets(t *testing.T, pool *pgxpool.Pool, opt Options) *Buckets {
	t.Helper()
	b, err := New(pool, opt)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBurstThenWait(t *testing.T) {
	b := newBuckets(t, open(t), Options{Rate: 2, Burst: 3})
	ctx := context.Background()
	for i := range 3 {
		if d, err := b.Wait(ctx, "user:ada", true); err != nil || d != 0 {
			t.Fatalf("call %d of the burst: got wait %v, %v; want 0, nil", i+1, d, err)
		}
	}
	d, err := b.Wait(ctx, "user:ada", true)
	if err != nil {
		t.Fatal(err)
	}
	// An empty bucket gains a token in 1/rate = 500 ms; some of it passed since the burst.
	if d <= 0 || d > 500*time.Millisecond {
		t.Fatalf("the call past the burst: got wait %v; want within (0, 500ms]", d)
	}
	if d, _ := b.Wait(ctx, "user:grace", true); d != 0 {
		t.Fatalf("another user's first call: got wait %v; want 0 (buckets are per key)", d)
	}
	time.Sleep(d + 20*time.Millisecond)
	if d, err := b.Wait(ctx, "user:ada", true); err != nil || d != 0 {
		t.Fatalf("after the wait it named: got %v, %v; want 0, nil", d, err)
	}
}

// TestReplicasShareTheRate runs three Buckets on one database, as three replicas would be,
// with callers hammering one key through all three for a while: the calls allowed are the
// burst plus rate × time, ±10%, not three times that.
func TestReplicasShareTheRate(t *testing.T) {
	pool := open(t)
	const rate, burst = 50, 10
	replicas := []*Buckets{
		newBuckets(t, pool, Options{Rate: rate, Burst: burst}),
		newBuckets(t, pool, Options{Rate: rate, Burst: burst}),
		newBuckets(t, pool, Options{Rate: rate, Burst: burst}),
	}
	var allowed atomic.Int64
	ctx := context.Background()
	start := time.Now()
	deadline := start.Add(2 * time.Second)
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := replicas[i%3]
			for time.Now().Before(deadline) {
				d, err := b.Wait(ctx, "user:ada", true)
				if err != nil {
					t.Error(err)
					return
				}
				if d == 0 {
					allowed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	want := burst + rate*secs
	got := float64(allowed.Load())
	t.Logf("%.0f calls allowed in %.2f s over three replicas; the rate allows %.0f", got, secs, want)
	if got < 0.9*want || got > 1.1*want {
		t.Fatalf("got %.0f calls allowed; want %.0f ±10%%", got, want)
	}
}

func TestSweepBoundsAnonymousKeepsUsers(t *testing.T) {
	pool := open(t)
	b := newBuckets(t, pool, Options{Rate: 1, Burst: 1, MaxAnonymous: 5, SweepEvery: time.Hour})
	ctx := context.Background()
	if _, err := b.Wait(ctx, "user:ada", true); err != nil {
		t.Fatal(err)
	}
	for _, ip := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		if _, err := b.Wait(ctx, "addr:"+ip, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	var anonymous, users int
	if err := pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE NOT signed_in), count(*) FILTER (WHERE signed_in) FROM rate_buckets`).Scan(&anonymous, &users); err != nil {
		t.Fatal(err)
	}
	if anonymous != 5 || users != 1 {
		t.Fatalf("after the sweep: got %d anonymous and %d user buckets; want 5 and 1", anonymous, users)
	}
	var oldestKept bool
	if err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM rate_buckets WHERE key = 'addr:a')`).Scan(&oldestKept); err != nil {
		t.Fatal(err)
	}
	if oldestKept {
		t.Fatal("the anonymous bucket unused longest survived the sweep; want it forgotten first")
	}
	// A forgotten bucket starts full, as a new one does.
	if d, _ := b.Wait(ctx, "addr:a", false); d != 0 {
		t.Fatalf("a forgotten bucket's next call: got wait %v; want 0", d)
	}
}

func TestIdleBucketsForgotten(t *testing.T) {
	pool := open(t)
	b := newBuckets(t, pool, Options{Rate: 1, Burst: 1, Idle: 50 * time.Millisecond, SweepEvery: time.Hour})
	ctx := context.Background()
	if _, err := b.Wait(ctx, "user:ada", true); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if err := b.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM rate_buckets`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("got %d buckets after an idle sweep; want 0", n)
	}
}

func TestDatabaseGoneIsAnError(t *testing.T) {
	c := pgtest.New(t)
	ctx := context.Background()
	url, err := c.CreateDB(ctx, "gone")
	if err != nil {
		t.Fatal(err)
	}
	pool := openURL(t, url)
	b := newBuckets(t, pool, Options{Rate: 1, Burst: 1})
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if d, err := b.Wait(ctx, "user:ada", true); err == nil {
		t.Fatalf("with the database stopped: got wait %v and no error; want an error", d)
	}
}

func TestNewRefusesNoRate(t *testing.T) {
	if _, err := New(nil, Options{}); err == nil {
		t.Fatal("New with no rate: got no error; want one")
	}
}
