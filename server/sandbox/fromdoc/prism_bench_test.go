package fromdoc

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"loupe/server/internal/wrk"
)

// prismPath returns the Prism 5.16 CLI the side-by-side benchmarks run (server/testdata/prism,
// installed by `make deps-bench`), or fails saying so.
func prismPath(b testing.TB) string {
	p, err := filepath.Abs("../../testdata/prism/node_modules/.bin/prism")
	if err == nil {
		_, err = os.Stat(p)
	}
	if err != nil {
		b.Fatal("Prism is not installed; this benchmark compares the sandbox with it. Run `make deps-bench` (npm ci in server/testdata/prism/)")
	}
	return p
}

// startPrism runs `prism mock` on a document on a free loopback port until stop (or the end of
// the benchmark), and returns its base URL, or an error when it does not answer within a
// minute.
func startPrism(b testing.TB, prism, doc string) (base string, stop func(), err error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(prism, "mock", "-h", "127.0.0.1", "-p", strconv.Itoa(port), "-v", "error", doc)
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		b.Fatalf("starting Prism: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stop = sync.OnceFunc(func() { _ = cmd.Process.Kill(); <-exited })
	b.Cleanup(stop)
	addr := "127.0.0.1:" + strconv.Itoa(port)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		select {
		case <-exited:
			return "", stop, fmt.Errorf("prism exited: %s", trim(out.String(), 300))
		default:
		}
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return "http://" + addr, stop, nil
		}
	}
	return "", stop, fmt.Errorf("prism did not answer on %s: %s", addr, trim(out.String(), 300))
}

// BenchmarkCorpusBesidePrism calls every operation of the corpus (testdata/corpus.txt) with
// the same requests on the sandbox built from its document and on Stoplight Prism 5.16 mocking
// the same document, and judges both answers with libopenapi-validator: it reports the rate
// of valid answers of each (goal: the sandbox >= 99%). One Prism runs per document, in turn
// (about 5 minutes: run it alone, with -benchtime 1x, under the heavy lock).
func BenchmarkCorpusBesidePrism(b *testing.B) {
	prism := prismPath(b)
	docs := corpusDocs(b)
	var ours, theirs []callResult
	noStart := 0
	for b.Loop() {
		ours, theirs, noStart = nil, nil, 0
		for _, rel := range docs {
			file := filepath.Join(directory, rel)
			data, err := os.ReadFile(file)
			if err != nil {
				b.Fatal(err)
			}
			d, err := Load(rel, data)
			if err != nil {
				b.Fatal(err)
			}
			s, err := New(Options{Name: "corpus", Document: d})
			if err != nil {
				b.Fatal(err)
			}
			ours = append(ours, callEvery(b, rel, data, func(r *http.Request) *http.Response { return serve(s, r) })...)
			base, stop, err := startPrism(b, prism, file)
			if err != nil {
				b.Logf("%s: %v", rel, err)
				noStart++
			}
			client := &http.Client{Timeout: 20 * time.Second}
			theirs = append(theirs, callEvery(b, rel, data, func(r *http.Request) *http.Response {
				if base == "" {
					return &http.Response{StatusCode: 599, Body: io.NopCloser(strings.NewReader("prism did not start")), Header: http.Header{}}
				}
				out := r.Clone(r.Context())
				u, _ := url.Parse(base + r.URL.RequestURI())
				out.URL, out.RequestURI, out.Host = u, "", u.Host
				resp, err := client.Do(out)
				if err != nil {
					return &http.Response{StatusCode: 599, Body: io.NopCloser(strings.NewReader(err.Error())), Header: http.Header{}}
				}
				return resp
			})...)
			stop()
		}
	}
	ourRate, ourText, _ := rateOf(ours)
	theirRate, theirText, theirFailed := rateOf(theirs)
	if out := os.Getenv("LOUPE_PRISM_FAILURES"); out != "" {
		_ = os.WriteFile(out, []byte(strings.Join(theirFailed, "\n")+"\n"), 0o644)
	}
	b.ReportMetric(ourRate, "sandbox-valid-%")
	b.ReportMetric(theirRate, "prism-valid-%")
	b.Logf("%d documents. The sandbox: %s", len(docs), ourText)
	b.Logf("Prism 5.16 on the same documents and requests (it did not start on %d): %s", noStart, theirText)
}

// serve answers a request with h in-process.
func serve(h http.Handler, r *http.Request) *http.Response {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

// benchOps are the operations the load benchmark sends, on three of the corpus's documents:
// two collections' lists and seeded items (stateful answers), and stateless answers.
var benchOps = []struct{ doc, method, path string }{
	{"docker.com/hub.json", "GET", "/v2/access-tokens"},
	{"docker.com/hub.json", "GET", "/v2/access-tokens/access-token-1"},
	{"powerdns.local.json", "GET", "/servers/localhost/tsigkeys"},
	{"powerdns.local.json", "GET", "/servers/localhost/statistics"},
	{"powerdns.local.json", "GET", "/servers/localhost/tsigkeys/tsigkey-1"},
	{"apis.guru.json", "GET", "/providers.json"},
}

// BenchmarkSandboxBesidePrism loads the sandbox built from each document (served on loopback
// by net/http, as /sandbox/<slug> answers without the server's logging) and Prism 5.16 mocking
// the same document with the same requests, with wrk (2 threads, 64 connections, 2 s),
// taking turns, and reports each one's req/s over Prism's (goal >= 10x) and both p99s.
func BenchmarkSandboxBesidePrism(b *testing.B) {
	prism := prismPath(b)
	wrkPath := wrk.Path(b)
	type target struct {
		urls     map[string]string
		args     []string
		rps, p99 map[string][]float64
	}
	var targets []*target
	prisms := map[string]string{}
	sandboxes := map[string]string{}
	for _, op := range benchOps {
		file := filepath.Join(directory, op.doc)
		if sandboxes[op.doc] == "" {
			data, err := os.ReadFile(file)
			if err != nil {
				b.Fatal(err)
			}
			d, err := Load(op.doc, data)
			if err != nil {
				b.Fatal(err)
			}
			s, err := New(Options{Name: "bench", Document: d})
			if err != nil {
				b.Fatal(err)
			}
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			srv := &http.Server{Handler: s}
			go func() { _ = srv.Serve(l) }()
			b.Cleanup(func() { srv.Close() })
			sandboxes[op.doc] = "http://" + l.Addr().String()
			if prisms[op.doc], _, err = startPrism(b, prism, file); err != nil {
				b.Fatal(err)
			}
		}
		d, _ := Load(op.doc, mustRead(b, file))
		var o *operation
		for _, x := range d.ops {
			if x.Method == op.method && x.re.MatchString(op.path) {
				o = x
			}
		}
		if o == nil {
			b.Fatalf("%s: no operation %s %s", op.doc, op.method, op.path)
		}
		r := requestFor(d, o, 1)
		t := &target{rps: map[string][]float64{}, p99: map[string][]float64{}}
		for name, vs := range r.Header {
			t.args = append(t.args, "-H", name+": "+vs[0])
		}
		q := ""
		if r.URL.RawQuery != "" {
			q = "?" + r.URL.RawQuery
		}
		t.urls = map[string]string{"loupe": sandboxes[op.doc] + op.path + q, "prism": prisms[op.doc] + op.path + q}
		for _, name := range []string{"prism", "loupe"} { // warm up, and check both answer 2xx
			if _, _, err := wrk.Round(wrkPath, t.urls[name], 64, time.Second, t.args...); err != nil {
				b.Fatalf("%s %s, %s: %v", op.doc, op.path, name, err)
			}
		}
		targets = append(targets, t)
	}
	rounds := 0
	for ; b.Loop(); rounds++ {
		for _, t := range targets {
			order := []string{"loupe", "prism"}
			if rounds%2 == 1 {
				slices.Reverse(order)
			}
			for _, name := range order {
				r, lat, err := wrk.Round(wrkPath, t.urls[name], 64, 2*time.Second, t.args...)
				if err != nil {
					b.Fatalf("%s: %v", t.urls[name], err)
				}
				t.rps[name] = append(t.rps[name], r)
				t.p99[name] = append(t.p99[name], lat)
			}
		}
	}
	worst := 0.0
	for i, op := range benchOps {
		t := targets[i]
		ratio := median(t.rps["loupe"]) / median(t.rps["prism"])
		b.Logf("%s %s %s: sandbox %.0f req/s p99 %.1f ms, Prism %.0f req/s p99 %.1f ms: %.1fx Prism's req/s (goal >= 10x)",
			op.doc, op.method, op.path, median(t.rps["loupe"]), median(t.p99["loupe"]), median(t.rps["prism"]), median(t.p99["prism"]), ratio)
		if worst == 0 || ratio < worst {
			worst = ratio
		}
	}
	b.ReportMetric(worst, "worst/prism")
	b.Logf("medians of %d rounds, wrk 64 connections, %d CPUs: the lowest ratio is %.1fx (goal >= 10x)", rounds, runtime.NumCPU(), worst)
}

func mustRead(b testing.TB, file string) []byte {
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// median is the middle of xs.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
