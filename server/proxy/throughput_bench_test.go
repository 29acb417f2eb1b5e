package proxy

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"loupe/server/internal/wrk"

	"loupe/server/testenv/nginxtest"
)

// The throughput anchor (reference/perf-anchors.md, issue 19): wrk, 64 connections, ~1 KB JSON
// upstream on loopback: direct 69.9k req/s, nginx 40.6k, Loupe 16.5k (0.41x nginx); the goal
// is at least 0.5x nginx.
const (
	loadConns = 64
	loadTime  = 2 * time.Second // per target and round
)

// jsonKB is the upstream's answer: about 1 KB of JSON.
var jsonKB = []byte(`{"items":[` + strings.TrimSuffix(strings.Repeat(`{"id":"item-0001","name":"An item of the catalog","price":12.5,"tags":["a","b"]},`, 13), ",") + `]}` + "\n")

// BenchmarkProxyJSON64 measures requests per second and latency for a ~1 KB JSON answer with
// 64 keep-alive connections, straight to the upstream, through nginx, through Loupe's proxy and
// through a bare tuned httputil.ReverseProxy (what Go's proxy costs without Loupe's checks),
// each proxy a child process so that Loupe does not share the load generator's runtime, taking
// turns for loadTime each in every iteration (-benchtime 3x: three rounds), and reports the
// medians, Loupe's req/s over nginx's (goal >= 0.5) and over the bare ReverseProxy's. The load
// generator is wrk, as in the anchor's run; on a 2-core machine it, the upstream and the proxy
// share the CPUs.
func BenchmarkProxyJSON64(b *testing.B) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(jsonKB)
	}))
	defer upstream.Close()
	nginxURL := nginxtest.Start(b, []string{upstream.Listener.Addr().String()}, nginxtest.Options{})
	loupeURL := startLoupe(b, upstream.URL, "loupe")
	plainURL := startLoupe(b, upstream.URL, "plain")
	targets := []struct{ name, url string }{
		{"direct", upstream.URL + "/v1/items"},
		{"nginx", nginxURL + "/v1/items"},
		{"loupe", loupeURL + "/proxy/chat/v1/items"},
		{"plain", plainURL + "/v1/items"},
	}
	wrkPath := wrk.Path(b)
	rps := map[string][]float64{}
	p99 := map[string][]float64{}
	for _, t := range targets { // warm up: connections open, code paged in
		if _, _, err := wrk.Round(wrkPath, t.url, loadConns, time.Second); err != nil {
			b.Fatalf("%s: %v", t.name, err)
		}
	}
	var ratios, plainRatios []float64
	rounds := 0
	for i := 0; b.Loop(); i++ {
		rounds++
		round := map[string]float64{}
		for k := range targets {
			t := targets[(i+k)%len(targets)]
			r, lat, err := wrk.Round(wrkPath, t.url, loadConns, loadTime)
			if err != nil {
				b.Fatalf("%s: %v", t.name, err)
			}
			rps[t.name] = append(rps[t.name], r)
			p99[t.name] = append(p99[t.name], lat)
			round[t.name] = r
		}
		ratios = append(ratios, round["loupe"]/round["nginx"])
		plainRatios = append(plainRatios, round["loupe"]/round["plain"])
	}
	med := func(v []float64) float64 { s := slices.Clone(v); slices.Sort(s); return s[len(s)/2] }
	for _, t := range targets {
		b.ReportMetric(med(rps[t.name]), t.name+"-req/s")
	}
	b.ReportMetric(med(ratios), "loupe/nginx")
	b.ReportMetric(med(plainRatios), "loupe/plain")
	b.Logf("1 KB JSON, %d connections, medians of %d rounds of %s: direct %.0f req/s (p99 %.1f ms), nginx %.0f (p99 %.1f ms), Loupe %.0f (p99 %.1f ms), bare tuned ReverseProxy %.0f (p99 %.1f ms); Loupe/nginx %.2fx (goal >= 0.5x; anchor 0.41x), Loupe/bare ReverseProxy %.2fx (what Loupe's checks, masking and audit cost); %d CPUs",
		loadConns, rounds, loadTime, med(rps["direct"]), med(p99["direct"]), med(rps["nginx"]), med(p99["nginx"]),
		med(rps["loupe"]), med(p99["loupe"]), med(rps["plain"]), med(p99["plain"]), med(ratios), med(plainRatios), runtime.NumCPU())
}
