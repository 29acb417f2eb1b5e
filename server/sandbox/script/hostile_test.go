package script

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"loupe/server/sandbox"
	"loupe/server/sandbox/script/worker"
)

// hostileCode holds the runs no code may use to break the limits.
const hostileCode = `function regexNested() { return /^(a+)+(?=b)/.test('a'.repeat(30) + 'c'); }
function regexLookahead() { return /^(\w+\s?)*(?=$)/.test('a'.repeat(30) + '!'); }
function regexReplace() { return ('a'.repeat(40) + 'b').replace(/^(a|aa)+(?<!c)$/g, 'z'); }
function hugeArray() { return new Array(5e7).fill(1.5).length; }
function typedHuge() { return new Float64Array(5e8).length; }
function typedLoop() { var a = []; while (true) a.push(new Uint8Array(1 << 20)); }
function stringDoubling() { var s = 'x'; while (true) s += s; }
function repeatGiga() { return 'x'.repeat(1e9).length; }
function objectKeys() { var o = {}; for (var i = 0; ; i++) o['key' + i] = i; }
function deep(n) { return deep(n + 1); }
function deepNative(n) { return [n].map(function (x) { return deepNative(x + 1); }); }
function endless() { while (true) {} }
function endlessCatching() { while (true) { try { null.x; } catch (e) {} } }
function promiseLoop() { (function f() { return Promise.resolve().then(f); })(); }
function generatorLoop() { function* g() { while (true) yield 1; } for (var x of g()) {} }
function logFlood() { for (var i = 0; i < 2000; i++) Logger.log('x'.repeat(1 << 20)); }
function hundredMB() { return 'x'.repeat(100 << 20); }
function sleepy() { Utilities.sleep(300000); }
function build10MB() { var s = ''; var chunk = 'y'.repeat(1 << 20); for (var i = 0; i < 10; i++) s += chunk; return s.length; }
`

// hostileOptions are the limits of the hostile runs: small, so that the table is quick, and a
// time limit long enough that the runs that must reach the memory limit (typedLoop, repeatGiga)
// reach it first on a loaded machine too.
const (
	hostileTimeout = 3 * time.Second
	hostileMemory  = 128 << 20
	hostileRuns    = 4
)

// hostileHandler is a handler running hostileCode with the hostile limits and the time limit.
func hostileHandler(t testing.TB, timeout time.Duration) http.Handler {
	t.Helper()
	c := &clock{}
	c.set(t, "2026-11-20T12:10:00Z")
	h := New(Options{Now: c.now, RunTimeout: timeout, RunMemory: hostileMemory, MaxRuns: hostileRuns, MaxRunsPerUser: hostileRuns})
	mustCall(t, h, "PUT", contentPath, `{"files":[`+manifestFile+`,{"name":"Code","type":"SERVER_JS","source":`+js(hostileCode)+`}]}`)
	return h
}

// runAnswer is one scripts.run answer: the body's error (empty when it succeeded), the limit
// that stopped it, its logs header and how long it took.
type runAnswer struct {
	code            int
	errorMessage    string
	errorType       string
	limit, logsHead string
	result          string
	took            time.Duration
}

// runFunction runs fn (devMode) on h.
func runFunction(t testing.TB, h http.Handler, fn string) runAnswer {
	r := httptest.NewRequest("POST", "/v1/scripts/"+SeedScriptID+":run", strings.NewReader(`{"function":"`+fn+`","devMode":true}`))
	r.Header.Set("Authorization", "Bearer "+sandbox.DefaultKey)
	w := httptest.NewRecorder()
	start := time.Now()
	h.ServeHTTP(w, r)
	a := runAnswer{code: w.Code, took: time.Since(start), limit: w.Header().Get(LimitHeader), logsHead: w.Header().Get(LogsHeader)}
	var op struct {
		Response struct {
			Result json.RawMessage `json:"result"`
		} `json:"response"`
		Error struct {
			Details []struct {
				ErrorMessage string `json:"errorMessage"`
				ErrorType    string `json:"errorType"`
			} `json:"details"`
		} `json:"error"`
	}
	_ = json.Unmarshal(w.Body.Bytes(), &op)
	if len(op.Error.Details) > 0 {
		a.errorMessage, a.errorType = op.Error.Details[0].ErrorMessage, op.Error.Details[0].ErrorType
	}
	if len(op.Response.Result) < 100 {
		a.result = string(op.Response.Result)
	}
	return a
}

// rssBytes is the resident memory of process pid ("self" for this one), 0 when unknown.
func rssBytes(pid string) uint64 {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// peakRSS samples this process's memory and its workers' every 20 ms until stop is closed, and
// returns the largest sum seen.
func peakRSS(pool *worker.Pool, stop <-chan struct{}) <-chan uint64 {
	out := make(chan uint64, 1)
	go func() {
		var peak uint64
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			sum := rssBytes("self")
			for _, pid := range pool.PIDs() {
				sum += rssBytes(strconv.Itoa(pid))
			}
			peak = max(peak, sum)
			select {
			case <-stop:
				out <- peak
				return
			case <-t.C:
			}
		}
	}()
	return out
}

// TestHostileRuns runs code written to break the limits, four at a time, and checks that each
// run ends within its time limit plus one second with the limit's error, that the server and
// its workers together stay within (runs at once × the per-run memory) + 300 MB, and that an
// ordinary run works after them.
func TestHostileRuns(t *testing.T) {
	h := hostileHandler(t, hostileTimeout)
	tests := []struct {
		fn     string
		limits string // the limits that may stop it ("" when it must succeed)
		errMsg string // part of its error message, when it must say more than the limit
	}{
		{"regexNested", "time", "Exceeded maximum execution time"},
		{"regexLookahead", "time", "Exceeded maximum execution time"},
		{"regexReplace", "time", "Exceeded maximum execution time"},
		{"hugeArray", "time memory", ""},
		{"typedHuge", "memory", ""},
		{"typedLoop", "memory", "Exceeded memory limit"},
		{"stringDoubling", "time memory", ""},
		{"repeatGiga", "memory", "Exceeded memory limit"},
		{"objectKeys", "time memory", ""},
		{"deep", "stack time", ""},
		{"deepNative", "time stack memory", ""},
		{"endless", "time", "Exceeded maximum execution time"},
		{"endlessCatching", "time", "Exceeded maximum execution time"},
		{"promiseLoop", "time memory", ""},
		{"generatorLoop", "time", "Exceeded maximum execution time"},
		{"logFlood", "time memory", ""},
		{"hundredMB", "time memory result", ""},
		{"sleepy", "time", "Exceeded maximum execution time"},
	}
	stop := make(chan struct{})
	peak := peakRSS(worker.Shared(hostileMemory, hostileRuns), stop)
	answers := make([]runAnswer, len(tests))
	var wg sync.WaitGroup
	next := make(chan int)
	for range hostileRuns {
		wg.Go(func() {
			for i := range next {
				answers[i] = runFunction(t, h, tests[i].fn)
			}
		})
	}
	for i := range tests {
		next <- i
	}
	close(next)
	wg.Wait()
	close(stop)
	for i, tt := range tests {
		a := answers[i]
		if a.code != 200 || a.limit == "" || !strings.Contains(" "+tt.limits+" ", " "+a.limit+" ") || !strings.Contains(a.errorMessage, tt.errMsg) {
			t.Errorf("%s: got %d, limit %q, %s %q; want 200 stopped by %s (%q)", tt.fn, a.code, a.limit, a.errorType, a.errorMessage, tt.limits, tt.errMsg)
		}
		if a.took > hostileTimeout+time.Second {
			t.Errorf("%s: took %v; want at most the %v limit plus 1 s", tt.fn, a.took, hostileTimeout)
		}
		if len(a.logsHead) > maxLogHeader {
			t.Errorf("%s: the logs header has %d bytes; want at most %d", tt.fn, len(a.logsHead), maxLogHeader)
		}
	}
	got, budget := <-peak, uint64(hostileRuns*hostileMemory+300<<20)
	t.Logf("peak RSS of the server and its workers: %d MiB (budget %d MiB)", got>>20, budget>>20)
	if got > budget {
		t.Errorf("peak RSS of the server and its workers: got %d MiB; want at most %d MiB", got>>20, budget>>20)
	}
	if a := runFunction(t, h, "build10MB"); a.code != 200 || a.result != "10485760" {
		t.Errorf("an ordinary run after the hostile ones: got %d %q %q", a.code, a.result, a.errorMessage)
	}
}

// TestOrdinaryRunsPass builds a 10 MB string in each of 20 runs, four at a time, while another
// run allocates without end: none fails the memory limit it is under (each run has its own).
// The time limit is long, as an ordinary run's is: on a loaded machine a run may take a second.
func TestOrdinaryRunsPass(t *testing.T) {
	h := hostileHandler(t, 10*time.Second)
	hog := make(chan runAnswer, 1)
	go func() { hog <- runFunction(t, h, "typedLoop") }()
	var wg sync.WaitGroup
	next := make(chan int)
	failed := make(chan string, 20)
	for range hostileRuns - 1 {
		wg.Go(func() {
			for range next {
				if a := runFunction(t, h, "build10MB"); a.code != 200 || a.result != "10485760" {
					failed <- a.limit + " " + a.errorMessage
				}
			}
		})
	}
	for i := range 20 {
		next <- i
	}
	close(next)
	wg.Wait()
	close(failed)
	for f := range failed {
		t.Errorf("an ordinary run failed: %s", f)
	}
	if a := <-hog; a.limit != "memory" {
		t.Errorf("the hog: got limit %q %q; want memory", a.limit, a.errorMessage)
	}
}
