package engine

import (
	"encoding/json"
	"strconv"
	"sync"
	"testing"
	"time"
)

// memHost is a Host over a map of documents, as the script sandbox's store keeps them.
type memHost struct {
	mu    sync.Mutex
	docs  map[string]json.RawMessage
	locks map[string]bool
	lines []string
}

func newMemHost() *memHost {
	return &memHost{docs: map[string]json.RawMessage{}, locks: map[string]bool{}}
}

func (h *memHost) Load(key string) (json.RawMessage, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.docs[key], nil
}

func (h *memHost) Commit(changes []Change) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.apply(changes)
}

// apply applies changes; h.mu is held.
func (h *memHost) apply(changes []Change) error {
	for _, c := range changes {
		doc, err := ApplyChange(h.docs[c.Key], c)
		if err != nil {
			return err
		}
		if doc == nil {
			delete(h.docs, c.Key)
		} else {
			h.docs[c.Key] = doc
		}
	}
	return nil
}

func (h *memHost) Lock(scope string, wait time.Duration) (bool, error) {
	deadline := time.Now().Add(wait)
	for {
		h.mu.Lock()
		if !h.locks[scope] {
			h.locks[scope] = true
			h.mu.Unlock()
			return true, nil
		}
		h.mu.Unlock()
		if time.Now().After(deadline) {
			return false, nil
		}
		time.Sleep(time.Millisecond)
	}
}

func (h *memHost) Unlock(scope string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.locks, scope)
	return nil
}

func (h *memHost) Log(line string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lines = append(h.lines, line)
}

// runJS runs function fn of source as ada@example.com, in the time zone tz, on host, and
// applies the run's writes to it as the sandbox does when a run ends.
func runJS(t testing.TB, host *memHost, tz, source, fn string, args ...string) Result {
	t.Helper()
	job := Job{Files: []File{{Name: "Code", Type: "SERVER_JS", Source: source}}, Function: fn,
		ScriptID: "1scriptAbc", Title: "Test", User: "ada@example.com", TimeZone: tz, Limits: Limits{Timeout: 2 * time.Second}}
	for _, a := range args {
		job.Args = append(job.Args, json.RawMessage(a))
	}
	res := Run(job, host)
	host.mu.Lock()
	defer host.mu.Unlock()
	if err := host.apply(res.Changes); err != nil {
		t.Fatalf("applying the run's changes: %v", err)
	}
	return res
}

// js renders v as compact JSON for messages.
func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// outcome is what a run of f answered: its result as JSON, or its failure as "Type: message".
func outcome(r Result) string {
	if r.Fail != nil {
		return r.Fail.Type + ": " + r.Fail.Message
	}
	return string(r.Result)
}

// serviceCase is one call of a service: the body of function f, and what it returns.
type serviceCase struct {
	name, body, want string
}

// runCases runs each case's body as function f on one host (in order: a case may read what
// an earlier one wrote), in the time zone tz, and compares the outcome.
func runCases(t *testing.T, host *memHost, tz string, cases []serviceCase) {
	t.Helper()
	for _, c := range cases {
		r := runJS(t, host, tz, "function f() {\n"+c.body+"\n}\n", "f")
		if got := outcome(r); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// itoa is the decimal form of n.
func itoa(n int) string { return strconv.Itoa(n) }
