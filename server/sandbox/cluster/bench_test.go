package cluster

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
)

// BenchmarkHealth is one health call of the default cluster at level=shards, which walks
// every copy (ns/op per call).
func BenchmarkHealth(b *testing.B) {
	h := New(Options{})
	r := newRequest(http.MethodGet, "/_cluster/health?level=shards&wait_for_status=green", apiKey, "")
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d", w.Code)
		}
	}
}

// BenchmarkWakeWaiters is the time from a node's start until 100 calls waiting for it have
// all answered (ns/op per round of 100): one change wakes each once, and each answers.
func BenchmarkWakeWaiters(b *testing.B) {
	const n = 100
	h := New(Options{})
	for b.Loop() {
		b.StopTimer()
		h.ServeHTTP(httptest.NewRecorder(), newRequest(http.MethodPost, SandboxPrefix+"nodes/node-3/_stop", apiKey, ""))
		done := make(chan int, n)
		for range n {
			go func() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, newRequest(http.MethodGet, "/_cluster/health?wait_for_nodes=3", apiKey, ""))
				done <- w.Code
			}()
		}
		for Waiters(h) < n {
			runtime.Gosched()
		}
		b.StartTimer()
		h.ServeHTTP(httptest.NewRecorder(), newRequest(http.MethodPost, SandboxPrefix+"nodes/node-3/_start", apiKey, ""))
		for range n {
			if code := <-done; code != http.StatusOK {
				b.Fatalf("status %d", code)
			}
		}
	}
}
