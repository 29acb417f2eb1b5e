package pgstore

import (
	"context"
	"errors"
	"testing"

	"loupe/server/sandbox/state"
	"loupe/server/sandbox/state/storetest"
	"loupe/server/testenv/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// open opens a Store on a new database of the package's throw-away cluster.
func open(t *testing.T) *Store {
	t.Helper()
	st, err := Open(context.Background(), pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestPGStore runs the shared Store table against PostgreSQL.
func TestPGStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) state.Store { return open(t) })
}

// TestGenerations: a (session, api) is at 0 until changed; every change gives a new
// generation, which LoadAt reads with the entries; ApplyAt at an old generation writes nothing
// and fails with ErrConflict; Reset and Drop bring it back to 0, and the next change is at a
// generation never used before.
func TestGenerations(t *testing.T) {
	st := open(t)
	gen := func(session, api string) int64 {
		t.Helper()
		g, err := st.Generation(session, api)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	if g := gen("a", "x"); g != 0 {
		t.Fatalf("before any change: got %d; want 0", g)
	}
	g1, err := st.ApplyAt("a", "x", 0, []state.Change{state.Put("k", []byte("1"))})
	if err != nil || g1 == 0 || gen("a", "x") != g1 {
		t.Fatalf("first change: got %d, %v (stored %d); want a new generation", g1, err, gen("a", "x"))
	}
	if _, err := st.ApplyAt("a", "x", 0, []state.Change{state.Put("k", []byte("stale"))}); !errors.Is(err, state.ErrConflict) {
		t.Errorf("ApplyAt an old generation: got %v; want ErrConflict", err)
	}
	es, g, err := st.LoadAt("a", "x")
	if err != nil || g != g1 || len(es) != 1 || string(es[0].Value) != "1" {
		t.Errorf("LoadAt: got %v, %d, %v; want k=1 at %d (nothing written by the conflict)", es, g, err, g1)
	}
	g2, err := st.ApplyAt("a", "x", g1, []state.Change{state.Put("k", []byte("2"))})
	if err != nil || g2 == g1 {
		t.Errorf("ApplyAt the current generation: got %d, %v; want a new one past %d", g2, err, g1)
	}
	if gen("a", "y") != 0 || gen("b", "x") != 0 {
		t.Errorf("other (session, api) moved")
	}
	if err := st.Reset("a", "x"); err != nil || gen("a", "x") != 0 {
		t.Errorf("after Reset: got %d, %v; want 0", gen("a", "x"), err)
	}
	g3, err := st.ApplyAt("a", "x", 0, []state.Change{state.Put("k", []byte("3"))})
	if err != nil || g3 == g1 || g3 == g2 {
		t.Errorf("after Reset: got %d, %v; want a generation never used (not %d or %d)", g3, err, g1, g2)
	}
	if err := st.Drop("a"); err != nil || gen("a", "x") != 0 {
		t.Errorf("after Drop: got %d, %v; want 0", gen("a", "x"), err)
	}
}
