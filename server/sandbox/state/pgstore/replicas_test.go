package pgstore

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"loupe/server/sandbox/state"
)

// counter is a sandbox's live state in these tests: the stored value of key "n".
type counter struct {
	mu sync.Mutex
	n  string
}

// replica is one Loupe process's registry and API over the shared store.
func replica(st state.Store) *state.API[*counter] {
	reg := state.NewRegistry(st, state.Options{})
	return state.NewAPI(reg, "x", func(_ string, es []state.Entry) (*counter, error) {
		c := &counter{}
		for _, e := range es {
			if e.Key == "n" {
				c.n = string(e.Value)
			}
		}
		return c, nil
	}).Share(func() (*counter, error) { return &counter{}, nil })
}

// set changes the counter as a sandbox does: Get, then ApplyTo, then the live state.
func set(ctx context.Context, api *state.API[*counter], v string) error {
	c, err := api.Get(ctx)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := api.ApplyTo(ctx, c, state.Put("n", []byte(v))); err != nil {
		return err
	}
	c.n = v
	return nil
}

// read reads the counter as a GET does.
func read(t *testing.T, ctx context.Context, api *state.API[*counter]) string {
	t.Helper()
	c, err := api.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// TestRegistriesShareState: two registries (two replicas) on one database: each sees the
// other's acknowledged change on its next Read or Get, whether it held the session (its seed
// or its own copy) or not; a change computed from a state another replica changed since is
// refused with a 409 LimitError and nothing is written; Reset on one is seen on the other.
func TestRegistriesShareState(t *testing.T) {
	st := open(t)
	a, b := replica(st), replica(st)
	ctx := state.WithSession(context.Background(), "user:ada")
	if got := read(t, ctx, b); got != "" {
		t.Fatalf("B reads the seed: got %q", got)
	}
	for i, step := range []struct {
		writer, reader *state.API[*counter]
		v              string
	}{{a, b, "1"}, {b, a, "2"}, {a, b, "3"}, {a, a, "4"}, {b, a, "5"}} {
		if err := set(ctx, step.writer, step.v); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if got := read(t, ctx, step.reader); got != step.v {
			t.Errorf("step %d: the other replica reads %q; want %q", i, got, step.v)
		}
	}

	// A holds its state (at "5") and computes a change from it; B changes the session first.
	c, err := a.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := set(ctx, b, "6"); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	err = a.ApplyTo(ctx, c, state.Put("n", []byte("stale")))
	c.mu.Unlock()
	if le := state.AsLimit(err); le == nil || le.Status != http.StatusConflict || !errors.Is(err, state.ErrConflict) || !strings.Contains(le.Message, "send it again") {
		t.Errorf("a change from a stale state: got %v; want a 409 saying to send it again", err)
	}
	if got := read(t, ctx, a); got != "6" {
		t.Errorf("after the conflict A reads %q; want B's 6 (nothing of the stale change written)", got)
	}
	if err := set(ctx, a, "7"); err != nil {
		t.Errorf("sent again: %v", err)
	}
	if err := b.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if got := read(t, ctx, a); got != "" {
		t.Errorf("after B's Reset A reads %q; want the seed", got)
	}
	other := state.WithSession(context.Background(), "user:grace")
	if got := read(t, other, a); got != "" {
		t.Errorf("another session reads %q; want the seed", got)
	}
}

// TestConcurrentReplicas: two replicas change one session at once from several goroutines:
// every change is either acknowledged or refused (409, nothing written), and afterwards both
// replicas read what the store holds, which is one of the acknowledged changes.
func TestConcurrentReplicas(t *testing.T) {
	st := open(t)
	apis := []*state.API[*counter]{replica(st), replica(st)}
	ctx := state.WithSession(context.Background(), "user:ada")
	var mu sync.Mutex
	acked := map[string]bool{}
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 15 {
				v := fmt.Sprintf("%d-%d", g, i)
				err := set(ctx, apis[g%2], v)
				if le := state.AsLimit(err); err != nil && (le == nil || le.Status != http.StatusConflict) {
					t.Errorf("set %s: got %v; want nil or a 409", v, err)
				}
				if err == nil {
					mu.Lock()
					acked[v] = true
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	es, err := st.Load("user:ada", "x")
	if err != nil || len(es) != 1 || !acked[string(es[0].Value)] {
		t.Fatalf("stored: got %v, %v; want one acknowledged value", es, err)
	}
	for i, api := range apis {
		if got := read(t, ctx, api); got != string(es[0].Value) {
			t.Errorf("replica %d reads %q; want the stored %q", i, got, es[0].Value)
		}
	}
	t.Logf("%d of 90 changes acknowledged, the rest refused as conflicts", len(acked))
}
