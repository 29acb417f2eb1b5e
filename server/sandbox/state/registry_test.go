package state_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"loupe/server/sandbox/state"
)

// notes is a toy live state: the seed "seed" plus the stored notes, keyed by name.
type notes struct {
	mu    sync.Mutex
	items map[string]string
}

// newNotes is the toy API over reg; builds counts the live states it made.
func newNotes(reg *state.Registry, builds *int) *state.API[*notes] {
	return state.NewAPI(reg, "notes", func(session string, changes []state.Entry) (*notes, error) {
		*builds++
		n := &notes{items: map[string]string{"seed": "from the seed"}}
		for _, c := range changes {
			if len(c.Value) == 0 {
				delete(n.items, c.Key) // a tombstone
				continue
			}
			n.items[c.Key] = string(c.Value)
		}
		return n, nil
	})
}

// put writes a note the way a sandbox does: the store first, then the live state.
func put(ctx context.Context, api *state.API[*notes], key, value string) error {
	n, err := api.Get(ctx)
	if err != nil {
		return err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if err := api.ApplyTo(ctx, n, state.Put(key, []byte(value))); err != nil {
		return err
	}
	n.items[key] = value
	return nil
}

// TestApplyToReplaced: a write that began before a Reset and ends after another request built
// the session's state anew is not lost from the live state.
func TestApplyToReplaced(t *testing.T) {
	reg := state.NewRegistry(state.NewMemory(), state.Options{})
	builds := 0
	api := newNotes(reg, &builds)
	ctx := state.WithSession(context.Background(), "anon:x")
	old, _ := api.Get(ctx) // the write begins
	api.Reset(ctx)         // a Reset of the session
	read(t, ctx, api)      // another request builds the state from the store
	if err := api.ApplyTo(ctx, old, state.Put("late", []byte("1"))); err != nil {
		t.Fatal(err)
	}
	if got, want := read(t, ctx, api), "late=1,seed=from the seed"; got != want {
		t.Errorf("after the late write: got %q; want %q", got, want)
	}
}

// read returns the notes ctx's session sees, "k=v" sorted.
func read(t *testing.T, ctx context.Context, api *state.API[*notes]) string {
	t.Helper()
	n, err := api.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	var keys []string
	for k, v := range n.items {
		keys = append(keys, k+"="+v)
	}
	slices.Sort(keys)
	return strings.Join(keys, ",")
}

// clock is a settable clock.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// TestResetIsolation: two sessions change the same API; a Reset puts one back to the seed and
// leaves the other as it was; the store forgets only the first's changes.
func TestResetIsolation(t *testing.T) {
	store := state.NewMemory()
	reg := state.NewRegistry(store, state.Options{})
	builds := 0
	api := newNotes(reg, &builds)
	ada := state.WithSession(context.Background(), state.UserSession("ada"))
	bob := state.WithSession(context.Background(), state.UserSession("bob"))
	if err := put(ada, api, "a", "ada's"); err != nil {
		t.Fatal(err)
	}
	if err := put(bob, api, "b", "bob's"); err != nil {
		t.Fatal(err)
	}
	if got, want := read(t, ada, api), "a=ada's,seed=from the seed"; got != want {
		t.Errorf("ada: got %q; want %q", got, want)
	}
	if err := api.Reset(ada); err != nil {
		t.Fatal(err)
	}
	if got, want := read(t, ada, api), "seed=from the seed"; got != want {
		t.Errorf("ada after her Reset: got %q; want %q", got, want)
	}
	if got, want := read(t, bob, api), "b=bob's,seed=from the seed"; got != want {
		t.Errorf("bob after ada's Reset: got %q; want %q", got, want)
	}
	if got := reg.Bytes(state.UserSession("ada")); got != 0 {
		t.Errorf("ada's bytes after Reset: got %d; want 0", got)
	}
	if e, _ := store.Load(state.UserSession("bob"), "notes"); len(e) != 1 {
		t.Errorf("bob's stored changes: got %v; want his one", e)
	}
}

// TestCopyOnWrite: a session that only reads stores nothing; the live state is built once per
// session and rebuilt from the store after eviction.
func TestCopyOnWrite(t *testing.T) {
	store := state.NewMemory()
	c := &clock{time.Unix(1e9, 0)}
	reg := state.NewRegistry(store, state.Options{Now: c.now, Limits: state.Limits{Idle: time.Minute}})
	builds := 0
	api := newNotes(reg, &builds)
	reader := state.WithSession(context.Background(), "anon:reader")
	writer := state.WithSession(context.Background(), "anon:writer")
	read(t, reader, api)
	read(t, reader, api)
	if err := put(writer, api, "w", "1"); err != nil {
		t.Fatal(err)
	}
	if got := store.Sessions(); got != 1 {
		t.Errorf("sessions with stored changes: got %d; want 1 (the reader stores nothing)", got)
	}
	if builds != 2 {
		t.Errorf("builds: got %d; want 2 (one per session)", builds)
	}
	c.t = c.t.Add(2 * time.Minute)
	if got := reg.Sweep(); got != 2 {
		t.Errorf("Sweep: got %d evicted; want 2", got)
	}
	if got, want := read(t, writer, api), "seed=from the seed,w=1"; got != want {
		t.Errorf("writer after eviction (durable store kept): got %q; want %q", got, want)
	}
	if builds != 3 {
		t.Errorf("builds: got %d; want 3 (rebuilt after eviction)", builds)
	}
}

// TestEviction: idle sessions go after Limits.Idle, with their changes when DropEvicted; a
// session in use stays.
func TestEviction(t *testing.T) {
	store := state.NewMemory()
	c := &clock{time.Unix(1e9, 0)}
	reg := state.NewRegistry(store, state.Options{Now: c.now, DropEvicted: true, Limits: state.Limits{Idle: 10 * time.Minute}})
	builds := 0
	api := newNotes(reg, &builds)
	old := state.WithSession(context.Background(), "anon:old")
	busy := state.WithSession(context.Background(), "anon:busy")
	if err := put(old, api, "k", "v"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 12; i++ { // a request a minute
		c.t = c.t.Add(time.Minute)
		read(t, busy, api)
	}
	if got := reg.Len(); got != 1 {
		t.Errorf("live sessions after 12 minutes: got %d; want 1 (the idle one evicted as requests come)", got)
	}
	if got := store.Sessions(); got != 0 {
		t.Errorf("stored sessions: got %d; want 0 (DropEvicted)", got)
	}
	if got, want := read(t, old, api), "seed=from the seed"; got != want {
		t.Errorf("old session back: got %q; want %q", got, want)
	}
}

// TestBounds: one session too many evicts the least recently used one (with its changes, when
// DropEvicted) instead of being refused, and a change past a session's bytes is refused (507)
// while a smaller or shrinking change passes.
func TestBounds(t *testing.T) {
	c := &clock{time.Unix(1e9, 0)}
	store := state.NewMemory()
	reg := state.NewRegistry(store, state.Options{Now: c.now, DropEvicted: true,
		Limits: state.Limits{Idle: time.Minute, MaxSessions: 2, MaxBytes: 100}})
	builds := 0
	api := newNotes(reg, &builds)
	s := func(i int) context.Context { return state.WithSession(context.Background(), fmt.Sprintf("anon:%d", i)) }
	if err := put(s(1), api, "one", "1"); err != nil {
		t.Fatal(err)
	}
	c.t = c.t.Add(time.Second)
	read(t, s(2), api)
	c.t = c.t.Add(time.Second)
	if err := put(s(3), api, "three", "3"); err != nil {
		t.Fatalf("third session: got %v; want it served", err)
	}
	if got := reg.Len(); got != 2 {
		t.Errorf("live sessions: got %d; want 2", got)
	}
	if e, _ := store.Load("anon:1", "notes"); len(e) != 0 {
		t.Errorf("the evicted session's changes: got %v; want them forgotten (DropEvicted)", e)
	}
	if err := api.Reset(s(3)); err != nil {
		t.Fatal(err)
	}
	if err := put(s(3), api, "k", strings.Repeat("x", 90)); err != nil {
		t.Fatalf("91 bytes: %v", err)
	}
	err := put(s(3), api, "j", strings.Repeat("x", 20))
	le := state.AsLimit(err)
	if le == nil || le.Status != http.StatusInsufficientStorage || !errors.Is(err, state.ErrSessionFull) ||
		!strings.Contains(le.Message, "Reset") {
		t.Fatalf("past the bytes: got %v; want a 507 LimitError saying Reset", err)
	}
	if got, want := read(t, s(3), api), "k="+strings.Repeat("x", 90)+",seed=from the seed"; got != want {
		t.Errorf("after the refused change: got %q; want %q (nothing written)", got, want)
	}
	if err := put(s(3), api, "k", "short"); err != nil {
		t.Errorf("shrinking change: got %v; want it accepted", err)
	}
	if got := reg.Bytes("anon:3"); got != 6 {
		t.Errorf("bytes: got %d; want 6", got)
	}
}

// TestShare: with Share, sessions that only read get the one shared seed state; a write gives
// the writer its own, and after its Reset it reads the shared seed again.
func TestShare(t *testing.T) {
	reg := state.NewRegistry(state.NewMemory(), state.Options{})
	builds, seeds := 0, 0
	api := newNotes(reg, &builds).Share(func() (*notes, error) {
		seeds++
		return &notes{items: map[string]string{"seed": "from the seed"}}, nil
	})
	shared, _ := api.Read(state.WithSession(context.Background(), "anon:1"))
	for i := 2; i <= 100; i++ {
		if n, _ := api.Read(state.WithSession(context.Background(), fmt.Sprintf("anon:%d", i))); n != shared {
			t.Fatalf("reader %d: got its own state; want the shared seed", i)
		}
	}
	if seeds != 1 || builds != 0 {
		t.Errorf("100 readers: got %d seeds and %d builds; want 1 and 0", seeds, builds)
	}
	w := state.WithSession(context.Background(), "anon:1")
	if err := put(w, api, "k", "v"); err != nil {
		t.Fatal(err)
	}
	if n, _ := api.Read(w); n == shared || n.items["k"] != "v" {
		t.Errorf("writer's Read: got the shared seed or no change; want its own state with k=v")
	}
	if shared.items["k"] != "" {
		t.Errorf("the shared seed changed: %v", shared.items)
	}
	api.Reset(w)
	if n, _ := api.Read(w); n != shared {
		t.Errorf("after Reset: got its own state; want the shared seed")
	}
}

// TestConcurrent: reads, writes, resets and sweeps of a few sessions from many goroutines at
// once (run with -race); each session's live state then equals what the store holds.
func TestConcurrent(t *testing.T) {
	store := state.NewMemory()
	reg := state.NewRegistry(store, state.Options{Limits: state.Limits{Idle: time.Hour}})
	builds := 0
	var buildMu sync.Mutex
	api := state.NewAPI(reg, "notes", func(session string, changes []state.Entry) (*notes, error) {
		buildMu.Lock()
		builds++
		buildMu.Unlock()
		n := &notes{items: map[string]string{}}
		for _, c := range changes {
			n.items[c.Key] = string(c.Value)
		}
		return n, nil
	}).Share(func() (*notes, error) { return &notes{items: map[string]string{}}, nil })
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := state.WithSession(context.Background(), fmt.Sprintf("anon:%d", g%4))
			for i := range 200 {
				switch i % 10 {
				case 9:
					if g%4 == 0 {
						api.Reset(ctx)
					}
				case 8:
					reg.Sweep()
				case 7:
					if n, err := api.Read(ctx); err == nil {
						n.mu.Lock()
						_ = len(n.items)
						n.mu.Unlock()
					}
				default:
					if err := put(ctx, api, fmt.Sprintf("k%d", i%5), fmt.Sprint(g, i)); err != nil {
						t.Error(err)
					}
				}
			}
		}()
	}
	wg.Wait()
	for s := range 4 {
		ctx := state.WithSession(context.Background(), fmt.Sprintf("anon:%d", s))
		n, _ := api.Read(ctx)
		stored, _ := store.Load(fmt.Sprintf("anon:%d", s), "notes")
		n.mu.Lock()
		var got []string
		for k, v := range n.items {
			got = append(got, k+"="+v)
		}
		n.mu.Unlock()
		var want []string
		for _, e := range stored {
			want = append(want, e.Key+"="+string(e.Value))
		}
		slices.Sort(got)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("session %d: live %v; stored %v", s, got, want)
		}
	}
}
