package server

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	servercatalog "loupe/server/catalog"
	"loupe/server/sandbox/state"
)

// memContent is the seeded script project's content, which every session reads and changes.
const memContent = "/v1/projects/1qvD3r1OzRDGF_lHoS8HkAyJtK9gP3kVhDjK5xXzDgBm2bN3eRIqLkHzE/content"

// memCall calls the script API through the proxy as the browser with the cookie value.
func memCall(t *testing.T, ts *httptest.Server, cookie, method, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, ts.URL+"/proxy/script"+memContent, strings.NewReader(body))
	req.Header.Set("Cookie", state.CookieName+"="+cookie)
	req.Header.Set("Content-Type", "application/json")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// newCookie is a new browser's cookie value.
func newCookie() string {
	_, c := state.NewCookie(false)
	return c.Value
}

// fillSessions makes n browsers that each read the seeded project and change its code a
// little (session i's code returns i); it returns their cookie values.
func fillSessions(t *testing.T, ts *httptest.Server, n int) []string {
	cookies := make([]string, n)
	for i := range cookies {
		cookies[i] = newCookie()
		if code, body := memCall(t, ts, cookies[i], "GET", ""); code != 200 {
			t.Fatalf("session %d read: got %d %s", i, code, body)
		}
		body := fmt.Sprintf(`{"files":[{"name":"appsscript","type":"JSON","source":"{\"timeZone\":\"UTC\",\"runtimeVersion\":\"V8\"}"},{"name":"Code","type":"SERVER_JS","source":"function mine() { return %d; }"}]}`, i)
		if code, body := memCall(t, ts, cookies[i], "PUT", body); code != 200 {
			t.Fatalf("session %d change: got %d %s", i, code, body)
		}
	}
	return cookies
}

// heapNow is the live heap after a collection, once no catalog is being compressed in the
// background (the first server of the process, or an earlier test's with other documents,
// starts one that holds tens of MB for a second or two).
func heapNow() int64 {
	servercatalog.WaitCompressed()
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// TestSandboxSessionsMemory: 1,000 browsers (cookies) each read the seeded script project and
// change it a little through the proxy. The registry holds the 1,000 sessions, each within
// max_bytes and with its own change; the heap grows by a bounded amount per session; the
// 1,001st is served, and the session unused longest evicted (its change forgotten, without a
// data directory) instead of anyone being refused.
func TestSandboxSessionsMemory(t *testing.T) {
	const sessions = 1000
	srv, ts, _ := serve(t, "server:\n  limits:\n    rate: -1\n  sandbox:\n    max_sessions: 1000\n    max_sessions_per_client: 1000\n    max_bytes: 16384\n", nil)
	warm := newCookie() // the shared seed, the catalog's validators, the connection pool
	memCall(t, ts, warm, "GET", "")
	srv.registry.Reset(state.WithSession(t.Context(), "anon:"+warm), "")
	before := heapNow()
	start := time.Now()
	cookies := fillSessions(t, ts, sessions)
	took := time.Since(start)
	grown := heapNow() - before
	if got := srv.registry.Len(); got != sessions {
		t.Errorf("live sessions: got %d; want %d", got, sessions)
	}
	for _, i := range []int{0, 499, 999} {
		if b := srv.registry.Bytes("anon:" + cookies[i]); b == 0 || b > 16384 {
			t.Errorf("session %d: %d bytes of changes; want some, at most max_bytes 16384", i, b)
		}
		if _, body := memCall(t, ts, cookies[i], "GET", ""); !strings.Contains(body, fmt.Sprintf("return %d;", i)) {
			t.Errorf("session %d reads: got %.200s; want its own change", i, body)
		}
	}
	if code, body := memCall(t, ts, newCookie(), "GET", ""); code != 200 || srv.registry.Len() != sessions {
		t.Errorf("a reader past the bound: got %d %.100s, %d live; want 200 and no session for it", code, body, srv.registry.Len())
	}
	extra := fillSessions(t, ts, 1)
	if got := srv.registry.Len(); got != sessions || srv.registry.Bytes("anon:"+extra[0]) == 0 {
		t.Errorf("session %d: %d live; want it served, still %d live", sessions+1, got, sessions)
	}
	if _, body := memCall(t, ts, cookies[1], "GET", ""); strings.Contains(body, "return 1;") {
		t.Errorf("the session unused longest after one more: got its change; want it evicted (the seed)")
	}
	perSession := grown / sessions
	t.Logf("%d sessions in %v: heap grew %.1f MiB, %.1f KiB per session", sessions, took.Round(time.Millisecond),
		float64(grown)/(1<<20), float64(perSession)/1024)
	if perSession > 64<<10 {
		t.Errorf("heap per session: got %d bytes; want at most 64 KiB (one changed seed and its stored changes)", perSession)
	}
}

// TestSandboxSessionsEvicted: 1,000 sessions idle past server.sandbox.idle_timeout are evicted
// on the next call, their in-memory changes with them, and the heap they took is freed. The
// test moves the registry's clock, so that however slowly a loaded machine fills the
// sessions, none is idle before the fill ends.
func TestSandboxSessionsEvicted(t *testing.T) {
	const sessions = 1000
	var clock atomic.Int64 // nanoseconds past start
	start := time.Now()
	now := func() time.Time { return start.Add(time.Duration(clock.Load())) }
	srv, ts, _ := serveConfig(t, "server:\n  limits:\n    rate: -1\n  sandbox:\n    idle_timeout: 1m\n    max_sessions_per_client: 1000\n", nil, Config{Now: now})
	warm := fillSessions(t, ts, 1)[0] // the shared seed, the validators of a read and a change
	srv.registry.Reset(state.WithSession(t.Context(), "anon:"+warm), "")
	before := heapNow()
	cookies := fillSessions(t, ts, sessions)
	grown := heapNow() - before
	if got := srv.registry.Len(); got != sessions {
		t.Fatalf("live sessions before idle_timeout: got %d; want %d", got, sessions)
	}
	clock.Add(int64(2 * time.Minute)) // every session idle past idle_timeout
	if code, body := memCall(t, ts, newCookie(), "GET", ""); code != 200 {
		t.Fatalf("a new session: got %d %.300s; want 200", code, body)
	}
	if got := srv.registry.Len(); got != 0 {
		t.Errorf("live sessions after idle_timeout: got %d; want 0 (the %d idle ones evicted, the reader holds none)", got, sessions)
	}
	after := heapNow() - before
	t.Logf("heap: %.1f MiB with the sessions, %.1f MiB after eviction", float64(grown)/(1<<20), float64(after)/(1<<20))
	if after > grown/4 {
		t.Errorf("heap after eviction: %d bytes above the start; want most of the %d the sessions took freed", after, grown)
	}
	if _, body := memCall(t, ts, cookies[0], "GET", ""); strings.Contains(body, "return 0;") {
		t.Errorf("an evicted session without a data directory: got its change back; want the seed")
	}
}
