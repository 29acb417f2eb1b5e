package script

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// benchCode is what the users of the fairness benchmark run: an ordinary function for the
// well-behaved user, code that takes all it can for the others.
const benchCode = `function invoices(month) {
  var out = [];
  for (var i = 0; i < 200; i++) out.push({id: 'INV-' + i, month: month, total: i * 1.5});
  return out.filter(function (x) { return x.total > 100; }).length;
}
function endless() { while (true) {} }
function regex() { return /^(a+)+(?=b)/.test('a'.repeat(30) + 'c'); }
function hog() { var a = []; while (true) a.push(new Uint8Array(1 << 20)); }
function flood() { for (var i = 0; ; i++) Logger.log('x'.repeat(1 << 16)); }
`

// runLatencies runs invoices n times, one after the other, as session, and returns how long
// each took.
func runLatencies(b *testing.B, h http.Handler, session string, n int) []time.Duration {
	out := make([]time.Duration, 0, n)
	for range n {
		start := time.Now()
		code, body := sessionCall(b, context.Background(), h, session, "POST", "/v1/scripts/"+SeedScriptID+":run", `{"function":"invoices","parameters":["2026-11"],"devMode":true}`)
		if code != 200 || !strings.Contains(body, `"result":133`) {
			b.Fatalf("a well-behaved run: got %d %s", code, body)
		}
		out = append(out, time.Since(start))
	}
	return out
}

// p returns the q quantile of ds.
func p(ds []time.Duration, q float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// BenchmarkRunBesideHostileUser measures a well-behaved user's Run on an idle server, then
// while another user runs code that takes all it can (endless loops, a catastrophic regular
// expression, a memory hog, a log flood, one after the other) in every run slot they may hold,
// and prints both p99 latencies and their ratio (goal: at most 1.5x). Run it under
// flock /work/heavy.lock.
func BenchmarkRunBesideHostileUser(b *testing.B) {
	const samples, rounds = 300, 5
	h := New(Options{RunTimeout: 2 * time.Second, RunMemory: 128 << 20, MaxRuns: 4, MaxRunsPerUser: 2})
	for _, user := range []string{"good", "evil"} {
		if code, body := sessionCall(b, context.Background(), h, user, "PUT", contentPath, `{"files":[`+manifestFile+`,{"name":"Code","type":"SERVER_JS","source":`+js(benchCode)+`}]}`); code != 200 {
			b.Fatalf("%s's content: %d %s", user, code, body)
		}
	}
	for b.Loop() {
		runLatencies(b, h, "good", 20) // warm the workers
		// Idle and hostile blocks alternate, so that what else the machine does weighs on both.
		var idle, busy []time.Duration
		for range rounds {
			idle = append(idle, runLatencies(b, h, "good", samples/rounds)...)
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			hostile := []string{"endless", "regex", "hog", "flood"}
			for i := range 2 {
				wg.Go(func() {
					for n := i; ctx.Err() == nil; n++ {
						code, _ := sessionCall(b, ctx, h, "evil", "POST", "/v1/scripts/"+SeedScriptID+":run", `{"function":"`+hostile[n%len(hostile)]+`","devMode":true}`)
						if code == 429 {
							time.Sleep(20 * time.Millisecond)
						}
					}
				})
			}
			time.Sleep(300 * time.Millisecond) // the hostile runs under way
			busy = append(busy, runLatencies(b, h, "good", samples/rounds)...)
			cancel()
			wg.Wait()
		}
		ratio := float64(p(busy, 0.99)) / float64(p(idle, 0.99))
		fmt.Printf("well-behaved Run, %d runs each: idle p50 %v p99 %v; beside a hostile user p50 %v p99 %v; p99 ratio %.2fx (goal <= 1.5x)\n",
			samples, p(idle, 0.5).Round(10*time.Microsecond), p(idle, 0.99).Round(10*time.Microsecond),
			p(busy, 0.5).Round(10*time.Microsecond), p(busy, 0.99).Round(10*time.Microsecond), ratio)
		b.ReportMetric(float64(p(idle, 0.99).Microseconds())/1000, "idle-p99-ms")
		b.ReportMetric(float64(p(busy, 0.99).Microseconds())/1000, "hostile-p99-ms")
		b.ReportMetric(ratio, "p99-ratio")
	}
}
