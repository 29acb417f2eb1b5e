package script

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"loupe/server/sandbox"
	"loupe/server/sandbox/state"
)

// limitsProject is the seeded project with code that loops or allocates forever, on a
// handler with the given options.
func limitsProject(t *testing.T, opts Options) func(fn string) (int, any) {
	t.Helper()
	c := &clock{}
	c.set(t, "2026-11-20T12:10:00Z")
	opts.Now = c.now
	h := New(opts)
	code := "function forever() {\n  while (true) {}\n}\n" +
		"function hog() {\n  var a = [];\n  while (true) {\n    a.push(new Array(1000).fill('x'));\n  }\n}\n"
	mustCall(t, h, "PUT", contentPath, `{"files":[`+manifestFile+`,{"name":"Code","type":"SERVER_JS","source":`+js(code)+`}]}`)
	return func(fn string) (int, any) {
		return call(t, h, "POST", "/v1/scripts/"+SeedScriptID+":run", `{"function":"`+fn+`","devMode":true}`)
	}
}

// TestRunConcurrencyBound checks that a run is RUNNING while it goes on, that a run past
// MaxRuns is refused with a clear 429, and that the first run ends TIMED_OUT with code 10.
func TestRunConcurrencyBound(t *testing.T) {
	c := &clock{}
	c.set(t, "2026-11-20T12:10:00Z")
	h := New(Options{Now: c.now, MaxRuns: 1, RunTimeout: 2 * time.Second})
	mustCall(t, h, "PUT", contentPath, `{"files":[`+manifestFile+`,{"name":"Code","type":"SERVER_JS","source":"function forever() {\n  while (true) {}\n}\n"}]}`)
	done := make(chan any)
	go func() {
		_, v := call(t, h, "POST", "/v1/scripts/"+SeedScriptID+":run", `{"function":"forever","devMode":true}`)
		done <- v
	}()
	list := "/v1/processes:listScriptProcesses?scriptId=" + SeedScriptID + "&scriptProcessFilter.functionName=forever"
	deadline := time.Now().Add(10 * time.Second)
	for js(get(mustCall(t, h, "GET", list, ""), "processes", 0, "processStatus")) != `"RUNNING"` {
		if time.Now().After(deadline) {
			t.Fatal("the run never showed RUNNING")
		}
		time.Sleep(5 * time.Millisecond)
	}
	code, v := call(t, h, "POST", "/v1/scripts/"+SeedScriptID+":run", `{"function":"forever","devMode":true}`)
	st, msg := errorOf(v)
	if code != 429 || st != "RESOURCE_EXHAUSTED" || !strings.Contains(msg, "at most 1 scripts at once") {
		t.Errorf("a second run: got %d %s %q; want 429 RESOURCE_EXHAUSTED saying at most 1", code, st, msg)
	}
	first := <-done
	if got := js(get(first, "error", "code")) + js(get(first, "error", "details", 0, "errorMessage")); got != `10"Exceeded maximum execution time"` {
		t.Errorf("the first run: got %s; want code 10, Exceeded maximum execution time", js(first))
	}
	p := get(mustCall(t, h, "GET", list, ""), "processes", 0)
	if got := js(get(p, "processStatus")); got != `"TIMED_OUT"` {
		t.Errorf("the first run's process: got %s; want TIMED_OUT", js(p))
	}
	if d, err := time.ParseDuration(get(p, "duration").(string)); err != nil || d < 2*time.Second {
		t.Errorf("the first run's duration: got %v (%v); want at least the 2 s limit", d, err)
	}
}

// TestRunMemoryBound checks that a run that allocates without end is stopped by the memory
// bound, long before its time limit.
func TestRunMemoryBound(t *testing.T) {
	run := limitsProject(t, Options{RunMemory: 32 << 20, RunTimeout: 60 * time.Second})
	start := time.Now()
	code, v := run("hog")
	if got := js(get(v, "error", "details", 0, "errorMessage")); code != 200 || got != `"Exceeded memory limit"` {
		t.Errorf("hog: got %d %s; want the memory limit's error", code, js(v))
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("hog: took %v; want it stopped by memory, not time", took)
	}
}

// sessionCall is call as the user of the sandbox session, under ctx.
func sessionCall(t testing.TB, ctx context.Context, h http.Handler, session, method, path, body string) (int, string) {
	t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body)).WithContext(state.WithSession(ctx, session))
	r.Header.Set("Authorization", "Bearer "+sandbox.DefaultKey)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code, w.Body.String()
}

// TestRunSlotsPerUser checks that one user cannot take every run slot: past their share the
// user's next run is refused with 429, while another user still runs.
func TestRunSlotsPerUser(t *testing.T) {
	h := New(Options{MaxRuns: 3, MaxRunsPerUser: 2, RunTimeout: 2 * time.Second})
	src := `{"files":[` + manifestFile + `,{"name":"Code","type":"SERVER_JS","source":"function forever() {\n  while (true) {}\n}\nfunction quick() {\n  return 1;\n}\n"}]}`
	for _, user := range []string{"ada", "grace"} {
		if code, body := sessionCall(t, context.Background(), h, user, "PUT", contentPath, src); code != 200 {
			t.Fatalf("%s's content: %d %s", user, code, body)
		}
	}
	run := `{"function":"forever","devMode":true}`
	done := make(chan int, 2)
	for range 2 {
		go func() {
			code, _ := sessionCall(t, context.Background(), h, "ada", "POST", "/v1/scripts/"+SeedScriptID+":run", run)
			done <- code
		}()
	}
	running := "/v1/processes:listScriptProcesses?scriptId=" + SeedScriptID + "&scriptProcessFilter.statuses=RUNNING&scriptProcessFilter.functionName=forever"
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, body := sessionCall(t, context.Background(), h, "ada", "GET", running, "")
		if strings.Count(body, `"processStatus":"RUNNING"`) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("ada's two runs never showed RUNNING: %s", body)
		}
		time.Sleep(5 * time.Millisecond)
	}
	code, body := sessionCall(t, context.Background(), h, "ada", "POST", "/v1/scripts/"+SeedScriptID+":run", `{"function":"quick","devMode":true}`)
	if code != 429 || !strings.Contains(body, "at most 2 of one user's scripts at once") {
		t.Errorf("ada's third run: got %d %s; want 429 with the per-user bound's message", code, body)
	}
	if code, body := sessionCall(t, context.Background(), h, "grace", "POST", "/v1/scripts/"+SeedScriptID+":run", `{"function":"quick","devMode":true}`); code != 200 || !strings.Contains(body, `"result":1`) {
		t.Errorf("grace's run beside ada's: got %d %s; want 200 with result 1", code, body)
	}
	for range 2 {
		if code := <-done; code != 200 {
			t.Errorf("ada's endless run: got %d; want 200 with its timeout", code)
		}
	}
}

// TestRunStopsWhenClientLeaves checks that a run whose caller went away is stopped at once,
// recorded CANCELED, and its slot freed.
func TestRunStopsWhenClientLeaves(t *testing.T) {
	h := New(Options{MaxRuns: 1, RunTimeout: 20 * time.Second})
	mustCall(t, h, "PUT", contentPath, `{"files":[`+manifestFile+`,{"name":"Code","type":"SERVER_JS","source":"function forever() {\n  while (true) {}\n}\nfunction quick() {\n  return 1;\n}\n"}]}`)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	sessionCall(t, ctx, h, state.Local, "POST", "/v1/scripts/"+SeedScriptID+":run", `{"function":"forever","devMode":true}`)
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("the abandoned run took %v; want it stopped soon after its caller left", took)
	}
	ps := mustCall(t, h, "GET", "/v1/processes:listScriptProcesses?scriptId="+SeedScriptID+"&scriptProcessFilter.functionName=forever", "")
	if got := js(get(ps, "processes", 0, "processStatus")); got != `"CANCELED"` {
		t.Errorf("the abandoned run's process: got %s; want CANCELED", js(ps))
	}
	if out := mustCall(t, h, "POST", "/v1/scripts/"+SeedScriptID+":run", `{"function":"quick","devMode":true}`); js(get(out, "response", "result")) != "1" {
		t.Errorf("a run after it (one slot): got %s", js(out))
	}
}
