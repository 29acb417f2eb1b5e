package entities

import (
	"net/http"
	"net/http/httptest"
	"sort"
	"testing"
	"time"
)

// benchQueries are a few realistic requests: a popular name, a word found in
// many names, a prefix, a description word with a type filter, ids, and a
// non-English query.
var benchQueries = []string{
	"query=taylor+swift",
	"query=paris",
	"query=san&prefix=true",
	"query=physicist&types=Person",
	"ids=/m/0dl567&ids=/m/0lc_fra",
	"query=Deutschland&languages=de",
}

// BenchmarkSearch measures whole requests (parse, search, render, encode).
func BenchmarkSearch(b *testing.B) {
	h := newTestHandler(b)
	for _, q := range benchQueries {
		b.Run(q, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, SearchPath+"?key="+testKey+"&"+q, nil)
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d", rec.Code)
				}
			}
		})
	}
}

// TestSearchLatency checks the median request time stays under 1 ms, with a
// wide margin for slow shared machines (the benchmark gives the real figure).
func TestSearchLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("latency check skipped in -short mode")
	}
	h := newTestHandler(t)
	var ds []time.Duration
	for i := 0; i < 20; i++ {
		for _, q := range benchQueries {
			req := httptest.NewRequest(http.MethodGet, SearchPath+"?key="+testKey+"&"+q, nil)
			start := time.Now()
			h.ServeHTTP(httptest.NewRecorder(), req)
			ds = append(ds, time.Since(start))
		}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	if med := ds[len(ds)/2]; med > time.Millisecond {
		t.Errorf("got median %v; want under 1ms", med)
	}
}
