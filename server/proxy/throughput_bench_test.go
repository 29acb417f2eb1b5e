package proxy

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
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
	nginxURL := startNginx(b, upstream.Listener.Addr().String())
	loupeURL := startLoupe(b, upstream.URL, "loupe")
	plainURL := startLoupe(b, upstream.URL, "plain")
	targets := []struct{ name, url string }{
		{"direct", upstream.URL + "/v1/items"},
		{"nginx", nginxURL + "/v1/items"},
		{"loupe", loupeURL + "/proxy/chat/v1/items"},
		{"plain", plainURL + "/v1/items"},
	}
	wrk := findWrk(b)
	rps := map[string][]float64{}
	p99 := map[string][]float64{}
	for _, t := range targets { // warm up: connections open, code paged in
		if _, _, err := loadRound(wrk, t.url, time.Second); err != nil {
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
			r, lat, err := loadRound(wrk, t.url, loadTime)
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

// loadRound runs wrk (2 threads, loadConns connections) against u for d and returns requests
// per second and the 99th percentile latency in ms. Any socket error or non-2xx answer is an
// error.
func loadRound(wrk, u string, d time.Duration) (float64, float64, error) {
	out, err := exec.Command(wrk, "-t2", fmt.Sprintf("-c%d", loadConns), fmt.Sprintf("-d%ds", max(1, int(d.Seconds()))), "--latency", u).CombinedOutput()
	if err != nil {
		return 0, 0, fmt.Errorf("wrk: %v: %s", err, out)
	}
	text := string(out)
	if strings.Contains(text, "Non-2xx") || strings.Contains(text, "Socket errors") {
		return 0, 0, fmt.Errorf("wrk saw errors: %s", text)
	}
	var rps, p99 float64
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "Requests/sec:":
			rps, _ = strconv.ParseFloat(f[1], 64)
		case len(f) == 2 && f[0] == "99%":
			p99 = wrkMillis(f[1])
		}
	}
	if rps == 0 {
		return 0, 0, fmt.Errorf("no Requests/sec in wrk's output: %s", text)
	}
	return rps, p99, nil
}

// wrkMillis reads a wrk duration (850.00us, 8.09ms, 1.20s) in milliseconds.
func wrkMillis(s string) float64 {
	for _, u := range []struct {
		suffix string
		ms     float64
	}{{"us", 0.001}, {"ms", 1}, {"s", 1000}} {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f * u.ms
		}
	}
	return 0
}

// findWrk returns wrk's path, or fails the benchmark saying how to install it.
func findWrk(b *testing.B) string {
	p, err := exec.LookPath("wrk")
	if err != nil {
		b.Fatal("wrk is not installed; this benchmark loads the proxies with it. Run `make deps-bench` (Debian: apt-get install -y wrk)")
	}
	return p
}
