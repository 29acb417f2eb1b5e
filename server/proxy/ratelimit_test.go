package proxy

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// TestRateLimitPerKey: one client using up its burst waits; another client does not.
func TestRateLimitPerKey(t *testing.T) {
	l := newLimiters(1, 2)
	now := time.Unix(1e9, 0)
	for i := range 2 {
		if d := l.wait("client:203.0.113.1", false, now); d != 0 {
			t.Fatalf("call %d within the burst: wait %v; want none", i, d)
		}
	}
	if d := l.wait("client:203.0.113.1", false, now); d <= 0 {
		t.Errorf("past the burst: no wait; want one")
	}
	if d := l.wait("client:203.0.113.2", false, now); d != 0 {
		t.Errorf("another client: wait %v; want none", d)
	}
}

// TestRateBucketsFlood: ten times the table's size of anonymous clients keep it at its bound,
// and a signed-in user's bucket is kept through it (still spent: not reset by an eviction).
func TestRateBucketsFlood(t *testing.T) {
	l := newLimiters(1, 1)
	now := time.Unix(1e9, 0)
	l.wait("user:ada", true, now) // ada spends her burst
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range 10 * maxAnonymousBuckets {
		l.wait(fmt.Sprintf("client:100.%d.%d.%d", i>>16&255, i>>8&255, i&255), false, now)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	st := l.t.Stats()
	t.Logf("after %d clients: %d anonymous buckets, %d signed-in; heap %+.1f KiB", 10*maxAnonymousBuckets, st.Anonymous, st.Protected,
		(float64(after.HeapAlloc)-float64(before.HeapAlloc))/1024)
	if st.Anonymous > maxAnonymousBuckets || st.Protected != 1 {
		t.Errorf("got %+v; want at most %d anonymous buckets and ada's", st, maxAnonymousBuckets)
	}
	if d := l.wait("user:ada", true, now); d <= 0 {
		t.Error("ada's spent bucket was reset by the flood; want it kept")
	}
	if d := l.wait("client:192.0.2.1", false, now); d != 0 {
		t.Errorf("a new client after the flood: wait %v; want none", d)
	}
}
