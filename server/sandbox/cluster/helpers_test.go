package cluster

import (
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
		if c, ok := hh.cluster.clock.(*ManualClock); ok {
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
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	r := httptest.NewRequest(method, "http://localhost:9200"+target, rd)
	if auth != "" {
		r.Header.Set("Authorization", auth)
	}
	w := httptest.NewRecorder()
	clk := clockOf(h)
	if clk == nil {
		h.ServeHTTP(w, r)
		return w, 0
	}
	start := clk.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ServeHTTP(w, r)
	}()
	limit := time.Now().Add(realTimeLimit)
	for {
		select {
		case <-done:
			return w, clk.Now().Sub(start)
		default:
		}
		if time.Now().After(limit) {
			t.Fatalf("%s %s: no answer after %v of real time", method, target, realTimeLimit)
		}
		if Waiters(h) == 0 {
			runtime.Gosched()
			continue
		}
		// The call is blocked: fire the next timer (the simulation's step
		// or the call's timeout) and wait until it answers or blocks again.
		n := blockedCount(h)
		if !clk.Next() {
			t.Fatalf("%s %s: waits with nothing scheduled (it would wait forever)", method, target)
		}
		for blockedCount(h) == n {
			select {
			case <-done:
				return w, clk.Now().Sub(start)
			default:
			}
			if time.Now().After(limit) {
				t.Fatalf("%s %s: no answer after %v of real time", method, target, realTimeLimit)
			}
			runtime.Gosched()
		}
	}
}

// blockedCount is how many times a health call of h blocked.
func blockedCount(h http.Handler) int {
	c := h.(*handler).cluster
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.blocked
}

// waitFor starts a call in the background and returns once it waits: the
// test then changes the cluster and reads the answer from the channel.
func waitFor(t *testing.T, h http.Handler, target string) <-chan *httptest.ResponseRecorder {
	t.Helper()
	before := Waiters(h)
	out := make(chan *httptest.ResponseRecorder, 1)
	r := httptest.NewRequest(http.MethodGet, "http://localhost:9200"+target, nil)
	r.Header.Set("Authorization", apiKey)
	go func() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		out <- w
	}()
	limit := time.Now().Add(realTimeLimit)
	for Waiters(h) <= before {
		select {
		case w := <-out: // it answered without waiting
			out <- w
			return out
		default:
		}
		if time.Now().After(limit) {
			t.Fatalf("GET %s: not waiting after %v of real time", target, realTimeLimit)
		}
		runtime.Gosched()
	}
	return out
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
