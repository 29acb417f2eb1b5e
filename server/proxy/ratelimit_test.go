package proxy

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
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

// stubLimiter answers every Wait with its wait and err, and records the keys asked.
type stubLimiter struct {
	wait time.Duration
	err  error
	keys []string
}

func (s *stubLimiter) Wait(_ context.Context, key string, signedIn bool) (time.Duration, error) {
	s.keys = append(s.keys, fmt.Sprintf("%s signedIn=%v", key, signedIn))
	return s.wait, s.err
}

// TestSharedLimiter: with Config.Limiter set, its answer decides the call, and when it cannot
// answer the process's own buckets do (the first call of a fresh bucket passes).
func TestSharedLimiter(t *testing.T) {
	tests := []struct {
		name       string
		lim        *stubLimiter
		wantStatus int
		wantBody   string
		wantRetry  string
	}{
		{"a token", &stubLimiter{}, 200, "", ""},
		{"no token", &stubLimiter{wait: 1500 * time.Millisecond}, 429, "may make 0.5 per second (bursts of 3)", "2"},
		{"no database", &stubLimiter{err: errors.New("dial tcp: connection refused")}, 200, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, func(c *Config) {
				c.Rate, c.Burst, c.Limiter = 0.5, 3, tt.lim
				c.User = func(r *http.Request) (string, bool) { return r.Header.Get("X-Test-User"), true }
			})
			resp, body := h.do(t, "GET", "/proxy/chat/v1/stream", nil, http.Header{"X-Test-User": {"alice"}})
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("got %d %s; want %d", resp.StatusCode, body, tt.wantStatus)
			}
			if !strings.Contains(body, tt.wantBody) {
				t.Errorf("body: got %s; want it to contain %q", body, tt.wantBody)
			}
			if got := resp.Header.Get("Retry-After"); got != tt.wantRetry {
				t.Errorf("Retry-After: got %q; want %q", got, tt.wantRetry)
			}
			if got, want := strings.Join(tt.lim.keys, ","), "user:alice signedIn=true"; got != want {
				t.Errorf("keys asked: got %q; want %q", got, want)
			}
		})
	}
}

// TestSharedLimiterFallsBackToItsOwnBuckets: while the shared limiter cannot answer, the
// process's own buckets still limit the caller to the burst and rate.
func TestSharedLimiterFallsBackToItsOwnBuckets(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		c.Rate, c.Burst, c.Limiter = 0.5, 2, &stubLimiter{err: errors.New("dial tcp: connection refused")}
		c.User = func(r *http.Request) (string, bool) { return "alice", true }
	})
	var got []int
	for range 3 {
		resp, _ := h.do(t, "GET", "/proxy/chat/v1/stream", nil, nil)
		got = append(got, resp.StatusCode)
	}
	if fmt.Sprint(got) != "[200 200 429]" {
		t.Errorf("three calls with a burst of 2 and the shared limiter away: got %v; want [200 200 429]", got)
	}
}
