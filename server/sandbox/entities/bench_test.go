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

// BenchmarkSearchMedian runs the realistic requests in turn and reports the median request
// time beside its anchor, the 1 ms median on the embedded dataset.
func BenchmarkSearchMedian(b *testing.B) {
	h := newTestHandler(b)
	var ds []time.Duration
	i := 0
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, SearchPath+"?key="+testKey+"&"+benchQueries[i%len(benchQueries)], nil)
		start := time.Now()
		h.ServeHTTP(httptest.NewRecorder(), req)
		ds = append(ds, time.Since(start))
		i++
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	med := ds[len(ds)/2]
	b.ReportMetric(float64(med.Microseconds()), "median-µs")
	b.Logf("median request %v over %d requests; anchor: under 1 ms median (%.0f%% of it)", med, len(ds), 100*float64(med)/float64(time.Millisecond))
}
