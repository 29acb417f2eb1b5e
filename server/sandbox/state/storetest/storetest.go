// Package storetest is the table test every state.Store implementation passes: the memory
// store (state), the bbolt one (state/boltstore) and the PostgreSQL one (state/pgstore) run
// the same cases.
package storetest

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"loupe/server/sandbox/state"
)

// step is one call on the store under test.
type step struct {
	op      string // "apply", "reset", "drop"
	session string
	api     string
	changes []state.Change
}

// want is what Load answers for one (session, api) after the steps.
type want struct {
	session, api string
	entries      string // "k=v,k=v" sorted by key; "" when none
}

// cases are the shared table.
var cases = []struct {
	name  string
	steps []step
	wants []want
}{
	{"empty", nil, []want{{"a", "script", ""}}},
	{"put then read", []step{{"apply", "a", "script", []state.Change{state.Put("p/2", []byte("two")), state.Put("p/1", []byte("one"))}}},
		[]want{{"a", "script", "p/1=one,p/2=two"}, {"b", "script", ""}, {"a", "cluster", ""}}},
	{"later change of a key wins", []step{{"apply", "a", "x", []state.Change{state.Put("k", []byte("1")), state.Put("k", []byte("2"))}}},
		[]want{{"a", "x", "k=2"}}},
	{"forget removes", []step{
		{"apply", "a", "x", []state.Change{state.Put("k", []byte("1")), state.Put("j", []byte("9"))}},
		{"apply", "a", "x", []state.Change{state.Forget("k"), state.Forget("missing")}}},
		[]want{{"a", "x", "j=9"}}},
	{"empty value is a value, not a forget", []step{{"apply", "a", "x", []state.Change{state.Put("tomb", []byte{})}}},
		[]want{{"a", "x", "tomb="}}},
	{"reset one api of one session", []step{
		{"apply", "a", "x", []state.Change{state.Put("k", []byte("a"))}},
		{"apply", "a", "y", []state.Change{state.Put("k", []byte("a"))}},
		{"apply", "b", "x", []state.Change{state.Put("k", []byte("b"))}},
		{"reset", "a", "x", nil}},
		[]want{{"a", "x", ""}, {"a", "y", "k=a"}, {"b", "x", "k=b"}}},
	{"reset of nothing", []step{{"reset", "nobody", "x", nil}}, []want{{"nobody", "x", ""}}},
	{"drop a session", []step{
		{"apply", "a", "x", []state.Change{state.Put("k", []byte("a"))}},
		{"apply", "a", "y", []state.Change{state.Put("k", []byte("a"))}},
		{"apply", "b", "x", []state.Change{state.Put("k", []byte("b"))}},
		{"drop", "a", "", nil}, {"drop", "nobody", "", nil}},
		[]want{{"a", "x", ""}, {"a", "y", ""}, {"b", "x", "k=b"}}},
	{"odd names", []step{{"apply", "user:ädä/../x", "script", []state.Change{state.Put("\x00key", []byte("v"))}}},
		[]want{{"user:ädä/../x", "script", "\x00key=v"}}},
}

// Run runs the shared table against stores made by open (a fresh, empty store per case).
func Run(t *testing.T, open func(t *testing.T) state.Store) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := open(t)
			defer st.Close()
			for _, s := range c.steps {
				var err error
				switch s.op {
				case "apply":
					err = st.Apply(s.session, s.api, s.changes)
				case "reset":
					err = st.Reset(s.session, s.api)
				case "drop":
					err = st.Drop(s.session)
				}
				if err != nil {
					t.Fatalf("%s %s/%s: %v", s.op, s.session, s.api, err)
				}
			}
			for _, w := range c.wants {
				if got := load(t, st, w.session, w.api); got != w.entries {
					t.Errorf("Load(%q, %q): got %q; want %q", w.session, w.api, got, w.entries)
				}
			}
		})
	}
	t.Run("bad input", func(t *testing.T) {
		st := open(t)
		defer st.Close()
		for _, c := range []struct{ session, api, key string }{{"", "x", "k"}, {"a", "", "k"}, {"a", "x", ""}} {
			if err := st.Apply(c.session, c.api, []state.Change{state.Put(c.key, []byte("v"))}); err == nil {
				t.Errorf("Apply(%q, %q, key %q): got nil; want an error", c.session, c.api, c.key)
			}
		}
		if err := st.Apply("a", "x", []state.Change{state.Put("ok", []byte("v")), state.Put("", []byte("v"))}); err == nil {
			t.Errorf("Apply with one empty key: got nil; want an error")
		}
		if got := load(t, st, "a", "x"); got != "" {
			t.Errorf("after a refused Apply: got %q; want nothing written (all or none)", got)
		}
	})
	t.Run("values are copied", func(t *testing.T) {
		st := open(t)
		defer st.Close()
		v := []byte("abc")
		if err := st.Apply("a", "x", []state.Change{state.Put("k", v)}); err != nil {
			t.Fatal(err)
		}
		v[0] = 'z'
		e, _ := st.Load("a", "x")
		e[0].Value[1] = 'z'
		if got := load(t, st, "a", "x"); got != "k=abc" {
			t.Errorf("got %q; want k=abc (the store keeps its own copy)", got)
		}
	})
	t.Run("list sessions", func(t *testing.T) {
		st := open(t)
		defer st.Close()
		l, ok := st.(state.Lister)
		if !ok {
			t.Skip("the store cannot list its sessions (state.Lister)")
		}
		for _, s := range []string{"a", "b", "c"} {
			if err := st.Apply(s, "x", []state.Change{state.Put("k", []byte("v"))}); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.Drop("b"); err != nil {
			t.Fatal(err)
		}
		got, err := l.ListSessions()
		slices.Sort(got)
		if err != nil || !slices.Equal(got, []string{"a", "c"}) {
			t.Errorf("got %v, %v; want [a c]", got, err)
		}
	})
	t.Run("closed", func(t *testing.T) {
		st := open(t)
		st.Close()
		if err := st.Apply("a", "x", []state.Change{state.Put("k", []byte("v"))}); !errors.Is(err, state.ErrClosed) {
			t.Errorf("Apply after Close: got %v; want ErrClosed", err)
		}
		if _, err := st.Load("a", "x"); !errors.Is(err, state.ErrClosed) {
			t.Errorf("Load after Close: got %v; want ErrClosed", err)
		}
	})
}

// load formats Load's answer as "k=v,k=v".
func load(t *testing.T, st state.Store, session, api string) string {
	t.Helper()
	es, err := st.Load(session, api)
	if err != nil {
		t.Fatalf("Load(%q, %q): %v", session, api, err)
	}
	out := ""
	for i, e := range es {
		if i > 0 {
			out += ","
		}
		out += fmt.Sprintf("%s=%s", e.Key, e.Value)
	}
	return out
}
