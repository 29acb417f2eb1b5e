package server

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"loupe/server/sandbox"
)

// The stream anchor (issue 19, reference/perf-anchors.md): 2,000 concurrent chat streams
// through /proxy to the built-in model in one process took RSS 706 MB (423 MB straight to
// /sandbox), time to first token p50 385 ms, p90 827 ms; the goal is RSS <= 300 MB, 0 errors and
// a p90 within 1.3x the direct one.
const (
	benchChatStreams = 2000
	// benchChatTokens is each answer's length: at the server's 40 tokens/s a stream lasts about
	// 5 s, long enough for all of them to be open at once.
	benchChatTokens = 200
)

// streamsResult is one round of benchChatStreams concurrent streams.
type streamsResult struct {
	ttft    []time.Duration // time to the first token of each stream that had one
	errs    int
	firstEr string
	peakRSS float64 // MB, sampled every 20 ms while the streams ran
}

// chatStreamsRound opens benchChatStreams chat streams at once against u and reads each to its
// end. With heapProfile set, it writes the server's heap profile there once every stream is open.
func chatStreamsRound(client *http.Client, srv *benchServer, u, heapProfile string) streamsResult {
	body := fmt.Sprintf(`{"model":"v0-1.0-md","stream":true,"max_tokens":%d,"messages":[{"role":"user","content":"a todo list app"}]}`, benchChatTokens)
	var res streamsResult
	var mu sync.Mutex
	var wg sync.WaitGroup
	var started atomic.Int32 // streams that got their headers or failed
	start := make(chan struct{})
	stopSampling := make(chan struct{})
	sampled := make(chan float64)
	go func() {
		peak := 0.0
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				peak = max(peak, rss(srv.pid))
			case <-stopSampling:
				sampled <- max(peak, rss(srv.pid))
				return
			}
		}
	}()
	for range benchChatStreams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			t0 := time.Now()
			fail := func(err error) {
				mu.Lock()
				res.errs++
				if res.firstEr == "" {
					res.firstEr = err.Error()
				}
				mu.Unlock()
			}
			req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+sandbox.DefaultKey)
			resp, err := client.Do(req)
			started.Add(1)
			if err != nil {
				fail(err)
				return
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				msg, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
				fail(fmt.Errorf("status %d: %s", resp.StatusCode, msg))
				return
			}
			sc := bufio.NewScanner(resp.Body)
			var first time.Duration
			done := false
			for sc.Scan() {
				line := sc.Bytes()
				if first == 0 && bytes.Contains(line, []byte(`"content":"`)) && !bytes.Contains(line, []byte(`"content":""`)) {
					first = time.Since(t0)
				}
				if bytes.Equal(line, []byte("data: [DONE]")) {
					done = true
				}
			}
			if err := sc.Err(); err != nil || !done || first == 0 {
				fail(fmt.Errorf("stream ended early (err %v, done %v, first token %v)", err, done, first))
				return
			}
			mu.Lock()
			res.ttft = append(res.ttft, first)
			mu.Unlock()
		}()
	}
	close(start)
	cpuDone := make(chan struct{})
	if heapProfile != "" {
		// The CPU profile of the first seconds: the streams starting, where the time to first
		// token goes.
		go func() {
			defer close(cpuDone)
			if err := saveProfile(srv.debug+"/debug/pprof/profile?seconds=4", heapProfile+".cpu"); err != nil {
				fmt.Fprintln(os.Stderr, "CPU profile:", err)
			}
		}()
	} else {
		close(cpuDone)
	}
	if heapProfile != "" {
		for deadline := time.Now().Add(time.Minute); started.Load() < benchChatStreams*9/10 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		if err := saveProfile(srv.debug+"/debug/pprof/heap", heapProfile); err != nil {
			fmt.Fprintln(os.Stderr, "heap profile:", err)
		}
		_ = saveProfile(srv.debug+"/debug/pprof/goroutine?debug=1", heapProfile+".goroutines.txt")
		_ = saveProfile(srv.debug+"/debug/pprof/heap?debug=1", heapProfile+".txt") // ends with runtime.MemStats
	}
	wg.Wait()
	<-cpuDone
	close(stopSampling)
	res.peakRSS = <-sampled
	return res
}

// percentile returns the p-th percentile of d in milliseconds.
func percentile(d []time.Duration, p float64) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return float64(s[min(len(s)-1, int(float64(len(s))*p))]) / float64(time.Millisecond)
}

func medianOf(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkChatStreams2000 opens 2,000 concurrent chat streams (200 tokens at 40 tokens/s)
// to the built-in model of a Loupe server in a child process, through /proxy/chat and straight
// to /sandbox/chat, taking turns with a fresh server each round, and reports the server's peak
// RSS, the time to first token p50 and p90 and the errors of each, and the proxy's over the
// direct figures. Each iteration is one pair of rounds (about 15 s); run -benchtime 3x for
// medians. It raises its own file-descriptor limit to hold 2,000 client connections
// (syscall.Setrlimit). LOUPE_BENCH_HEAPPROFILE=path first runs a round of each, not measured,
// that writes the server's heap profile with 90% of the streams open to path.proxy and path.direct (and the goroutines to
// path.<name>.goroutines.txt, runtime.MemStats at the end of path.<name>.txt, the CPU profile of
// the round's first 4 s to path.<name>.cpu).
func BenchmarkChatStreams2000(b *testing.B) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && lim.Cur < 2*benchChatStreams+512 {
		lim.Cur = min(lim.Max, 2*benchChatStreams+512)
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			b.Logf("raising the file-descriptor limit: %v", err)
		}
	}
	client := &http.Client{Transport: &http.Transport{
		MaxIdleConnsPerHost: benchChatStreams, MaxIdleConns: benchChatStreams,
		DisableCompression: true, ReadBufferSize: 4 << 10,
	}, Timeout: 2 * time.Minute} // a round lasts about 10 s: a stuck one ends as errors
	paths := []struct{ name, path string }{
		{"proxy", "/proxy/chat/v1/chat/completions"},
		{"direct", "/sandbox/chat/v1/chat/completions"},
	}
	type figures struct{ rss, p50, p90, errs []float64 }
	got := map[string]*figures{"proxy": {}, "direct": {}}
	if profile := os.Getenv("LOUPE_BENCH_HEAPPROFILE"); profile != "" {
		// Profiling costs the server time while the streams start: a round of its own, not
		// measured.
		for _, p := range paths {
			srv := startBenchServer(b)
			r := chatStreamsRound(client, srv, srv.url+p.path, profile+"."+p.name)
			srv.stop()
			client.CloseIdleConnections()
			b.Logf("profiled round, %s: %d errors %s; heap profile in %s.%s", p.name, r.errs, r.firstEr, profile, p.name)
		}
	}
	rounds := 0
	for i := 0; b.Loop(); i++ {
		rounds++
		for k := range paths {
			p := paths[(i+k)%len(paths)] // take turns: neither always runs first
			srv := startBenchServer(b)
			idle := rss(srv.pid)
			cpu0 := cpuSeconds(srv.pid)
			r := chatStreamsRound(client, srv, srv.url+p.path, "")
			cpu := cpuSeconds(srv.pid) - cpu0
			srv.stop()
			client.CloseIdleConnections()
			f := got[p.name]
			f.rss = append(f.rss, r.peakRSS)
			f.p50 = append(f.p50, percentile(r.ttft, 0.5))
			f.p90 = append(f.p90, percentile(r.ttft, 0.9))
			f.errs = append(f.errs, float64(r.errs))
			b.Logf("round %d, %s: peak RSS %.0f MB (idle %.0f MB), TTFT p50 %.0f ms p90 %.0f ms, %d errors %s; server CPU %.2f s",
				i+1, p.name, r.peakRSS, idle, percentile(r.ttft, 0.5), percentile(r.ttft, 0.9), r.errs, r.firstEr, cpu)
		}
	}
	px, dx := got["proxy"], got["direct"]
	b.ReportMetric(medianOf(px.rss), "proxy-rss-MB")
	b.ReportMetric(medianOf(dx.rss), "direct-rss-MB")
	b.ReportMetric(medianOf(px.p50), "proxy-ttft-p50-ms")
	b.ReportMetric(medianOf(px.p90), "proxy-ttft-p90-ms")
	b.ReportMetric(medianOf(dx.p90), "direct-ttft-p90-ms")
	b.ReportMetric(medianOf(px.p90)/medianOf(dx.p90), "p90-proxy/direct")
	b.ReportMetric(slices.Max(px.errs)+slices.Max(dx.errs), "errors")
	b.Logf("%d concurrent chat streams of %d tokens at 40 tokens/s, medians of %d rounds: through /proxy peak RSS %.0f MB, TTFT p50 %.0f ms p90 %.0f ms; "+
		"direct to /sandbox %.0f MB, p50 %.0f ms p90 %.0f ms; proxy/direct p90 %.2fx (goal <= 1.3x), RSS goal <= 300 MB; errors %.0f (goal 0); "+
		"anchor: proxy 706 MB, p90 827 ms, direct 423 MB, p90 451 ms; %d CPUs",
		benchChatStreams, benchChatTokens, rounds, medianOf(px.rss), medianOf(px.p50), medianOf(px.p90),
		medianOf(dx.rss), medianOf(dx.p50), medianOf(dx.p90), medianOf(px.p90)/medianOf(dx.p90),
		slices.Max(px.errs)+slices.Max(dx.errs), runtime.NumCPU())
}
