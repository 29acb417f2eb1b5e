package proxy

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"loupe/server/testenv/nginxtest"
)

// The SSE anchor (reference/perf-anchors.md): 200 concurrent streams of 50 events 10 ms apart;
// time to first event direct 12.6 ms, nginx 11.3 ms, Go ReverseProxy with defaults 29.3 ms.
const (
	benchStreams  = 200
	benchEvents   = 50
	benchInterval = 10 * time.Millisecond
)

// BenchmarkSSEFirstEvent measures the median time to first event of 200 concurrent SSE streams
// direct to an upstream, through nginx, through Loupe's proxy and through a bare tuned
// httputil.ReverseProxy (what Loupe's checks cost), taking turns in the same run, and reports
// Loupe's median over nginx's, overall and as the median of per-round ratios (the goal is at
// most 1.2). On a loaded machine the figures swing; compare runs on a quiet one.
func BenchmarkSSEFirstEvent(b *testing.B) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		rc := http.NewResponseController(w)
		for i := range benchEvents {
			fmt.Fprintf(w, "data: {\"n\":%d,\"delta\":\"token\"}\n\n", i)
			if rc.Flush() != nil {
				return
			}
			select {
			case <-time.After(benchInterval):
			case <-r.Context().Done():
				return
			}
		}
		io.WriteString(w, "data: [DONE]\n\n")
	}))
	defer upstream.Close()

	nginxURL := nginxtest.Start(b, []string{upstream.Listener.Addr().String()}, nginxtest.Options{})
	loupeURL := startLoupe(b, upstream.URL, "loupe")
	plainURL := startLoupe(b, upstream.URL, "plain")

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchStreams, MaxIdleConns: 4 * benchStreams}}
	targets := []struct{ name, url string }{
		{"direct", upstream.URL + "/v1/stream"},
		{"nginx", nginxURL + "/v1/stream"},
		{"loupe", loupeURL + "/proxy/chat/v1/stream"},
		{"plain", plainURL + "/v1/stream"},
	}
	samples := map[string][]time.Duration{}
	var ratios []float64 // per round, Loupe's median over nginx's: robust to the machine's load drifting
	// One warm-up round each, so every path has its connections open.
	for _, t := range targets {
		if _, err := streamRound(client, t.url); err != nil {
			b.Fatalf("%s: %v", t.name, err)
		}
	}
	b.ResetTimer()
	var round, nginxRound []time.Duration
	for i := range b.N {
		// Take turns in a rotating order, so no path always follows the same one.
		for k := range targets {
			t := targets[(i+k)%len(targets)]
			ttfe, err := streamRound(client, t.url)
			if err != nil {
				b.Fatalf("%s: %v", t.name, err)
			}
			samples[t.name] = append(samples[t.name], ttfe...)
			if t.name == "loupe" {
				round = ttfe
			} else if t.name == "nginx" {
				nginxRound = ttfe
			}
		}
		ratios = append(ratios, median(round)/median(nginxRound))
	}
	b.StopTimer()
	med := map[string]float64{}
	for _, t := range targets {
		med[t.name] = median(samples[t.name])
		b.ReportMetric(med[t.name], t.name+"-ms")
	}
	ratio := med["loupe"] / med["nginx"]
	slices.Sort(ratios)
	paired := ratios[len(ratios)/2]
	b.ReportMetric(ratio, "loupe/nginx")
	b.ReportMetric(paired, "loupe/nginx-paired")
	b.Logf("time to first event, %d concurrent streams, median over %d: direct %.2f ms, nginx %.2f ms, Loupe %.2f ms (bare tuned ReverseProxy %.2f ms); Loupe/nginx %.2fx, median of %d per-round ratios %.2fx (goal <= 1.2x; anchor: Go ReverseProxy defaults 2.6x nginx); %d CPUs, GOMAXPROCS %d in every Go process, nginx workers auto",
		benchStreams, len(samples["loupe"]), med["direct"], med["nginx"], med["loupe"], med["plain"], ratio, len(ratios), paired, runtime.NumCPU(), runtime.GOMAXPROCS(0))
}

// TestMain serves the benchmark's proxy when started as its child process (startLoupe).
func TestMain(m *testing.M) {
	if up := os.Getenv("LOUPE_BENCH_UPSTREAM"); up != "" {
		serveBenchProxy(up, os.Getenv("LOUPE_BENCH_PROXY"))
		return
	}
	os.Exit(m.Run())
}

// serveBenchProxy serves a proxy for the chat API at upstream, the way server.New sets it up (a
// credential, masking, audit), prints its address and serves until its stdin closes. With kind
// "plain" it serves a bare httputil.ReverseProxy with the same Transport instead: what Go's
// proxy costs without Loupe's checks. With LOUPE_BENCH_CPUPROFILE=path it writes the proxy's
// CPU profile to path.<kind> (go test -bench SSEFirstEvent -cpuprofile profiles only the
// benchmark's own process: the client and the upstream).
func serveBenchProxy(upstream, kind string) {
	base, _ := url.Parse(upstream)
	var h http.Handler = New(Config{
		APIs: map[string]*API{"chat": {BaseURL: base, AllowUndocumented: true, Secrets: []string{"bench-SECRET-key"},
			Apply: func(r *http.Request) { r.Header.Set("Authorization", "Bearer bench-SECRET-key") }}},
		Audit: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if kind == "plain" {
		h = &httputil.ReverseProxy{
			Rewrite:    func(pr *httputil.ProxyRequest) { pr.SetURL(base) },
			Transport:  NewTransport(),
			BufferPool: newBufferPool(),
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("ERROR", err)
		return
	}
	if path := os.Getenv("LOUPE_BENCH_CPUPROFILE"); path != "" {
		f, err := os.Create(path + "." + kind)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	fmt.Println("ADDR", l.Addr().String())
	done := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); close(done) }()
	go func() { _ = (&http.Server{Handler: h}).Serve(l) }()
	<-done
}

// startLoupe runs the proxy in a child process, as nginx runs in its own: the comparison is
// between two proxies, not between one sharing the benchmark's Go runtime and one that does not.
func startLoupe(b *testing.B, upstream, kind string) string {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LOUPE_BENCH_UPSTREAM="+upstream, "LOUPE_BENCH_PROXY="+kind)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatalf("starting the proxy process: %v", err)
	}
	b.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "ADDR ")
	if err != nil || !ok {
		b.Fatalf("the proxy process said %q (%v)", line, err)
	}
	return "http://" + addr
}

// streamRound opens benchStreams streams at once and returns each one's time to first event;
// every stream is read to its end.
func streamRound(client *http.Client, u string) ([]time.Duration, error) {
	out := make([]time.Duration, benchStreams)
	errs := make(chan error, benchStreams)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range benchStreams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			t0 := time.Now()
			resp, err := client.Get(u)
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			br := bufio.NewReader(resp.Body)
			line, err := br.ReadString('\n')
			if err != nil || !strings.HasPrefix(line, "data: ") {
				errs <- fmt.Errorf("first event: %q %v (status %d)", line, err, resp.StatusCode)
				return
			}
			out[i] = time.Since(t0)
			_, _ = io.Copy(io.Discard, br)
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	return out, <-errs
}

func median(d []time.Duration) float64 {
	s := slices.Clone(d)
	slices.Sort(s)
	return float64(s[len(s)/2]) / float64(time.Millisecond)
}
