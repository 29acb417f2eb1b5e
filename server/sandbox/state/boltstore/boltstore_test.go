package boltstore

import (
	"strings"
	"testing"
	"time"

	"loupe/server/sandbox/state"
	"loupe/server/sandbox/state/storetest"
)

// TestBoltStore runs the shared Store table against the bbolt store.
func TestBoltStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) state.Store {
		st, err := Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return st
	})
}

// TestReopen: what Apply acknowledged is there after Close and Open; a second Open of the same
// directory while the first holds it fails with a message saying what to do.
func TestReopen(t *testing.T) {
	defer func(d time.Duration) { lockTimeout = d }(lockTimeout)
	lockTimeout = 100 * time.Millisecond
	dir := t.TempDir()
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Apply("user:ada", "script", []state.Change{state.Put("p/1", []byte(`{"title":"x"}`))}); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "another Loupe uses this data directory") {
		t.Errorf("second Open: got %v; want the data directory in use", err)
	}
	st.Close()
	st, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	es, err := st.Load("user:ada", "script")
	if err != nil || len(es) != 1 || es[0].Key != "p/1" || string(es[0].Value) != `{"title":"x"}` {
		t.Errorf("after reopen: got %v, %v; want p/1", es, err)
	}
}
