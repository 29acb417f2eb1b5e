package cluster

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"loupe/server/sandbox"
)

// apiKey is the Authorization header the default sandbox accepts.
const apiKey = "ApiKey " + sandbox.DefaultKey

// basic returns a basic Authorization header for user:pass.
func basic(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

// epoch is where test clocks start.
var epoch = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

// realTimeLimit bounds how long a test waits in real time for what the
// simulation does at once; reaching it means a bug, not a slow machine.
const realTimeLimit = 20 * time.Second

// newTest is New with a ManualClock unless opts has a clock: time moves only
// when the test (or do, for a wait) says so.
func newTest(opts Options) http.Handler {
	if opts.Clock == nil {
		opts.Clock = NewManualClock(epoch)
	}
	return New(opts)
}

// clockOf is the ManualClock of a handler from newTest.
func clockOf(h http.Handler) *ManualClock {
	if hh, ok := h.(*handler); ok {
		if c, ok := hh.clock.(*ManualClock); ok {
			return c
		}
	}
	return nil
}

// do sends method target (path and query) with the Authorization header auth
// (none when empty) and body to h. A call that waits lets simulated time
// pass, a second at a time, until it answers.
func do(t *testing.T, h http.Handler, method, target, auth, body string) *httptest.ResponseRecorder {
	t.Helper()
	w, _ := doTimed(t, h, method, target, auth, body)
	return w
}

// doTimed is do, also reporting the simulated time the call took.
func doTimed(t *testing.T, h http.Handler, method, target, auth, body string) (*httptest.ResponseRecorder, time.Duration) {
	t.Helper()
	if clockOf(h) == nil {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, newRequest(method, target, auth, body))
		return w, 0
	}
	c := startCall(h, method, target, auth, body)
	return c.finish(t)
}

// newRequest builds a request to the sandbox.
func newRequest(method, target, auth, body string) *http.Request {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	r := httptest.NewRequest(method, "http://localhost:9200"+target, rd)
	if auth != "" {
		r.Header.Set("Authorization", auth)
	}
	return r
}

// call is a request running in the background against a handler from
// newTest.
type call struct {
	h      http.Handler
	clk    *ManualClock
	target string
	start  time.Time
	w      *httptest.ResponseRecorder
	done   chan struct{}
	cancel func()
}

// startCall sends a request in the background.
func startCall(h http.Handler, method, target, auth, body string) *call {
	return startCallIn(context.Background(), h, method, target, auth, body)
}

// startCallIn is startCall with the request's context made from parent (one
// that carries a session).
func startCallIn(parent context.Context, h http.Handler, method, target, auth, body string) *call {
	ctx, cancel := context.WithCancel(parent)
	r := newRequest(method, target, auth, body).WithContext(ctx)
	c := &call{h: h, clk: clockOf(h), target: target, w: httptest.NewRecorder(), done: make(chan struct{}), cancel: cancel}
	c.start = c.clk.Now()
	go func() {
		defer close(c.done)
		h.ServeHTTP(c.w, r)
	}()
	return c
}

// answered reports whether the call has answered.
func (c *call) answered() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// blocked waits (in real time, briefly) until the call answers or blocks on
// its condition, and reports whether it blocks.
func (c *call) blocked(t *testing.T) bool {
	t.Helper()
	limit := time.Now().Add(realTimeLimit)
	for !c.answered() {
		if Waiters(c.h) > 0 {
			return true
		}
		if time.Now().After(limit) {
			t.Fatalf("GET %s: neither answered nor waiting after %v of real time", c.target, realTimeLimit)
		}
		runtime.Gosched()
	}
	return false
}

// woken waits until the call, blocked n times so far (blockedCount), has
// answered or blocked again.
func (c *call) woken(t *testing.T, n int) {
	t.Helper()
	limit := time.Now().Add(realTimeLimit)
	for blockedCount(c.h) == n && !c.answered() {
		if time.Now().After(limit) {
			t.Fatalf("GET %s: not woken after %v of real time", c.target, realTimeLimit)
		}
		runtime.Gosched()
	}
}

// finish lets simulated time pass, one timer at a time (the simulation's
// steps, the call's timeout), until the call answers, and reports the
// simulated time it took.
func (c *call) finish(t *testing.T) (*httptest.ResponseRecorder, time.Duration) {
	t.Helper()
	limit := time.Now().Add(realTimeLimit)
	for c.blocked(t) {
		n := blockedCount(c.h)
		if !c.clk.Next() {
			t.Fatalf("GET %s: waits with nothing scheduled (it would wait forever)", c.target)
		}
		c.woken(t, n)
		if time.Now().After(limit) {
			t.Fatalf("GET %s: no answer after %v of real time", c.target, realTimeLimit)
		}
	}
	return c.w, c.clk.Now().Sub(c.start)
}

// blockedCount is how many times a health call of h blocked (on the seeded
// cluster or the Local session's own).
func blockedCount(h http.Handler) int {
	n := 0
	for _, c := range h.(*handler).localSims() {
		c.mu.Lock()
		n += c.blocked
		c.mu.Unlock()
	}
	return n
}

// get sends an authenticated GET.
func get(t *testing.T, h http.Handler, target string) *httptest.ResponseRecorder {
	t.Helper()
	return do(t, h, http.MethodGet, target, apiKey, "")
}

// decode decodes a JSON body into a generic value.
func decode(t *testing.T, w *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		t.Fatalf("decoding %q: %v", w.Body, err)
	}
	return v
}

// health GETs target, wants status and decodes the health body.
func health(t *testing.T, h http.Handler, target string, status int) healthBody {
	t.Helper()
	w := get(t, h, target)
	if w.Code != status {
		t.Fatalf("GET %s: status: got %d; want %d (body %s)", target, w.Code, status, w.Body)
	}
	var b struct {
		healthBody
		Indices map[string]indexBody `json:"indices"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil {
		t.Fatalf("GET %s: decoding %s: %v", target, w.Body, err)
	}
	b.healthBody.Indices = b.Indices
	return b.healthBody
}

// indexNames lists the keys of a decoded indices block, sorted.
func indexNames(b healthBody) []string {
	m, _ := b.Indices.(map[string]indexBody)
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(t *testing.T, got, want string) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("decoding %s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("decoding %s: %v", want, err)
	}
	return reflect.DeepEqual(g, w)
}
