package bounded

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// keys lists the table's keys, most recently used first, anonymous then protected.
func keys(t *Table[string, int]) []string {
	var out []string
	t.Range(func(k string, _ int) bool { out = append(out, k); return true })
	return out
}

func TestTableBounds(t *testing.T) {
	type put struct {
		key, client string
		protected   bool
	}
	for _, tc := range []struct {
		name        string
		opts        Options[string, int]
		puts        []put
		touch       []string
		want        []string
		wantEvicted []string
	}{
		{"past the total the least recently used anonymous entry goes", Options[string, int]{Max: 2},
			[]put{{"a", "1", false}, {"b", "2", false}, {"c", "3", false}}, nil, []string{"c", "b"}, []string{"a"}},
		{"a use keeps an entry", Options[string, int]{Max: 2},
			[]put{{"a", "1", false}, {"b", "2", false}}, []string{"a"}, []string{"a", "b"}, nil},
		{"past a client's bound that client's own oldest goes, not another's", Options[string, int]{Max: 10, PerClient: 2},
			[]put{{"other", "9", false}, {"a", "1", false}, {"b", "1", false}, {"c", "1", false}}, nil, []string{"c", "b", "other"}, []string{"a"}},
		{"anonymous entries never evict protected ones", Options[string, int]{Max: 1, MaxProtected: 5},
			[]put{{"user", "u", true}, {"a", "1", false}, {"b", "2", false}, {"c", "3", false}}, nil, []string{"c", "user"}, []string{"a", "b"}},
		{"protected entries have their own total", Options[string, int]{Max: 5, MaxProtected: 1},
			[]put{{"anon", "1", false}, {"u1", "u1", true}, {"u2", "u2", true}}, nil, []string{"anon", "u2"}, []string{"u1"}},
		{"replacing a key moves it", Options[string, int]{Max: 2, PerClient: 1},
			[]put{{"a", "1", false}, {"b", "2", false}, {"a", "2", false}}, nil, []string{"a"}, []string{"b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var evicted []string
			tc.opts.OnEvict = func(k string, _ int) { evicted = append(evicted, k) }
			tb := New(tc.opts)
			for i, p := range tc.puts {
				tb.Put(p.key, i, p.client, p.protected)
			}
			for _, k := range tc.touch {
				tb.Touch(k)
			}
			if got := keys(tb); !slices.Equal(got, tc.want) {
				t.Errorf("got %v; want %v", got, tc.want)
			}
			if !slices.Equal(evicted, tc.wantEvicted) {
				t.Errorf("evicted %v; want %v", evicted, tc.wantEvicted)
			}
		})
	}
}

func TestTableWeight(t *testing.T) {
	var evicted []string
	tb := New(Options[string, int]{Max: 10, MaxWeight: 100, OnEvict: func(k string, _ int) { evicted = append(evicted, k) }})
	tb.Put("a", 0, "1", false)
	tb.Put("b", 0, "2", false)
	tb.Put("u", 0, "u", true)
	tb.SetWeight("a", 60)
	tb.SetWeight("u", 1000) // protected weights do not count
	tb.SetWeight("b", 60)   // a goes: the least recently used other than b
	if got, want := keys(tb), []string{"b", "u"}; !slices.Equal(got, want) {
		t.Errorf("got %v; want %v", got, want)
	}
	tb.SetWeight("b", 200) // alone over the bound: b goes too
	if got := tb.Stats(); got.Anonymous != 0 || got.Weight != 0 || got.Evicted != 2 {
		t.Errorf("got %+v; want no anonymous entry, weight 0, 2 evicted", got)
	}
	if !slices.Equal(evicted, []string{"a", "b"}) {
		t.Errorf("evicted %v; want [a b]", evicted)
	}
}

func TestTableExpire(t *testing.T) {
	now := time.Unix(1000, 0)
	tb := New(Options[string, int]{Max: 10, Now: func() time.Time { return now }})
	tb.Put("old", 0, "1", false)
	tb.Put("user", 0, "u", true)
	now = now.Add(time.Minute)
	tb.Put("new", 0, "2", false)
	if n := tb.Expire(30 * time.Second); n != 2 {
		t.Errorf("expired %d; want 2", n)
	}
	if got := keys(tb); !slices.Equal(got, []string{"new"}) {
		t.Errorf("got %v; want [new]", got)
	}
}

func TestTableDeleteAndCounts(t *testing.T) {
	tb := New(Options[string, int]{Max: 10})
	for i := range 5 {
		tb.Put(fmt.Sprint(i), i, "c", false)
	}
	if v, ok := tb.Delete("3"); !ok || v != 3 {
		t.Errorf("Delete: got %d, %v; want 3, true", v, ok)
	}
	if _, ok := tb.Peek("3"); ok {
		t.Error("a deleted key is still there")
	}
	if got := tb.ClientLen("c"); got != 4 {
		t.Errorf("client holds %d; want 4", got)
	}
	tb.Put("other", 9, "d", false)
	if n := tb.DeleteClient("c"); n != 4 || tb.ClientLen("c") != 0 || tb.Len() != 1 {
		t.Errorf("DeleteClient: removed %d, %d left; want 4 removed, the other client's 1 left", n, tb.Len())
	}
	tb.Delete("other")
	if got := tb.Stats(); got.Clients != 0 || got.Anonymous != 0 || tb.Len() != 0 {
		t.Errorf("got %+v, len %d; want an empty table", got, tb.Len())
	}
}

// TestTableFloodStaysBounded: a million entries from a thousand clients leave the table at its
// bounds, each client at most at its own.
func TestTableFloodStaysBounded(t *testing.T) {
	tb := New(Options[int, int]{Max: 1000, PerClient: 5})
	for i := range 1_000_000 {
		tb.Put(i, i, fmt.Sprint(i%1000), false)
	}
	st := tb.Stats()
	if st.Anonymous != 1000 || tb.Len() != 1000 {
		t.Errorf("got %+v; want 1000 entries", st)
	}
	for c := range 1000 {
		if n := tb.ClientLen(fmt.Sprint(c)); n > 5 {
			t.Fatalf("client %d holds %d; want at most 5", c, n)
		}
	}
}
