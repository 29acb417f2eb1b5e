package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"loupe/server/sandbox/script/engine"
)

// recordingHost is an engine.Host that records the requests a run made.
type recordingHost struct {
	mu    sync.Mutex
	calls []string
	docs  map[string]json.RawMessage
}

func (h *recordingHost) record(s string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, s)
}

func (h *recordingHost) Load(key string) (json.RawMessage, error) {
	h.record("load " + key)
	return h.docs[key], nil
}

func (h *recordingHost) Commit(changes []engine.Change) error {
	b, _ := json.Marshal(changes)
	h.record("commit " + string(b))
	return nil
}

func (h *recordingHost) Lock(scope string, wait time.Duration) (bool, error) {
	h.record("lock " + scope)
	return true, nil
}

func (h *recordingHost) Unlock(scope string) error {
	h.record("unlock " + scope)
	return nil
}

func (h *recordingHost) Log(string) {}

// job is a job running fn of source within timeout.
func job(source, fn string, timeout time.Duration) engine.Job {
	return engine.Job{Files: []engine.File{{Name: "Code", Type: "SERVER_JS", Source: source}}, Function: fn,
		ScriptID: "1script", User: "ada@example.com", Limits: engine.Limits{Timeout: timeout}}
}

// TestFrames checks the frames' round trip, and that a frame longer than the reader accepts is
// refused from its length, before it is read.
func TestFrames(t *testing.T) {
	var b bytes.Buffer
	if err := writeFrame(&b, &frame{Kind: kindLog, Lines: []string{"a", "b"}}); err != nil {
		t.Fatal(err)
	}
	raw := b.Bytes()
	f, err := readFrame(bytes.NewReader(raw), 1<<10)
	if err != nil || f.Kind != kindLog || strings.Join(f.Lines, ",") != "a,b" {
		t.Errorf("round trip: got %+v, %v", f, err)
	}
	var tl errTooLarge
	if _, err := readFrame(bytes.NewReader(raw), 8); !errors.As(err, &tl) || tl.n != len(raw)-frameHeader {
		t.Errorf("a frame past the bound: got %v; want errTooLarge of %d bytes", err, len(raw)-frameHeader)
	}
}

// TestPoolWorkers checks the pool's workers: a healthy worker runs the next job, a worker that
// broke its memory limit is replaced (the line its run logged just before reaching the server)
// and the next run works, so is one whose run the engine stopped at the limit, a run whose caller leaves ends at
// once, and the worker answers the run's requests for the user's state in order. Runs keep
// their priority (SlowAfter -1): on a busy machine a deprioritised one may reach its time limit.
func TestPoolWorkers(t *testing.T) {
	p := NewPool(Config{Memory: 64 << 20, Warm: 1, SlowAfter: -1})
	defer p.Close()
	src := `function quick() { return 7; }
function giga() { console.log('allocating'); return 'x'.repeat(1e9).length; }
function endless() { while (true) {} }
function hog() { var a = []; while (true) a.push(new Uint8Array(1 << 20)); }
function state() {
  var lock = LockService.getScriptLock();
  lock.waitLock(100);
  console.log('locked');
  var props = PropertiesService.getScriptProperties();
  props.setProperty('n', Number(props.getProperty('n')) + 1);
  lock.releaseLock();
  return props.getProperty('n');
}
`
	ctx := context.Background()
	if r := p.Run(ctx, job(src, "quick", 5*time.Second), &recordingHost{}); string(r.Result) != "7" {
		t.Fatalf("quick: got %+v", r)
	}
	first := p.PIDs()
	if r := p.Run(ctx, job(src, "quick", 5*time.Second), &recordingHost{}); string(r.Result) != "7" || !equalInts(p.PIDs(), first) {
		t.Errorf("a second quick run: got %s on %v; want 7 on the same worker %v", r.Result, p.PIDs(), first)
	}
	if r := p.Run(ctx, job(src, "giga", 5*time.Second), &recordingHost{}); r.Fail == nil || r.Fail.Limit != engine.LimitMemory || strings.Join(r.Logs, ",") != "allocating" {
		t.Errorf("giga: got %+v, logs %q; want the memory limit and the line logged before it", r.Fail, r.Logs)
	}
	if r := p.Run(ctx, job(src, "quick", 5*time.Second), &recordingHost{}); string(r.Result) != "7" || equalInts(p.PIDs(), first) {
		t.Errorf("after giga: got %s on %v; want 7 on another worker than %v", r.Result, p.PIDs(), first)
	}
	second := p.PIDs()
	if r := p.Run(ctx, job(src, "hog", 5*time.Second), &recordingHost{}); r.Fail == nil || r.Fail.Limit != engine.LimitMemory {
		t.Errorf("hog: got %+v; want the memory limit", r.Fail)
	}
	if r := p.Run(ctx, job(src, "quick", 5*time.Second), &recordingHost{}); string(r.Result) != "7" || equalInts(p.PIDs(), second) {
		t.Errorf("after hog: got %s on %v; want 7 on another worker than %v (one grown to its limit is replaced)", r.Result, p.PIDs(), second)
	}
	cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if r := p.Run(cctx, job(src, "endless", 30*time.Second), &recordingHost{}); r.Fail == nil || r.Fail.Limit != engine.LimitClient || time.Since(start) > 2*time.Second {
		t.Errorf("endless with its caller gone: got %+v after %v; want the client limit at once", r.Fail, time.Since(start))
	}
	h := &recordingHost{docs: map[string]json.RawMessage{"props/script/1script": []byte(`{"n":"41"}`)}}
	r := p.Run(ctx, job(src, "state", 5*time.Second), h)
	want := []string{"lock script/1script", "load props/script/1script", `commit [{"key":"props/script/1script","set":{"n":"42"}}]`, "unlock script/1script"}
	if string(r.Result) != `"42"` || strings.Join(h.calls, "\n") != strings.Join(want, "\n") || strings.Join(r.Logs, ",") != "locked" {
		t.Errorf("state: got %s, logs %q, requests\n%s\nwant \"42\", [locked], requests\n%s", r.Result, r.Logs, strings.Join(h.calls, "\n"), strings.Join(want, "\n"))
	}
}

// equalInts reports whether a and b hold the same numbers in the same order.
func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
