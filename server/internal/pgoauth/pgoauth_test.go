package pgoauth

import (
	"bytes"
	"context"
	"maps"
	"slices"
	"testing"
	"time"

	"loupe/server/sandbox/script"
	"loupe/server/testenv/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestGrants(t *testing.T) {
	g := NewGrants(pgtest.Open(t))
	type op struct {
		do        string // put, get, delete
		user, api string
		sealed    string // put: what; get: want ("" = none)
	}
	for _, c := range []struct {
		name string
		ops  []op
	}{
		{"none", []op{{"get", "ada", "script", ""}}},
		{"put then get", []op{{"put", "ada", "script", "one"}, {"get", "ada", "script", "one"}}},
		{"put replaces", []op{{"put", "ada", "script", "one"}, {"put", "ada", "script", "two"}, {"get", "ada", "script", "two"}}},
		{"per user and API", []op{{"put", "ada", "script", "one"}, {"put", "ada", "other", "two"}, {"put", "grace", "script", "three"},
			{"get", "ada", "script", "one"}, {"get", "ada", "other", "two"}, {"get", "grace", "script", "three"}, {"get", "grace", "other", ""}}},
		{"delete", []op{{"put", "ada", "script", "one"}, {"delete", "ada", "script", ""}, {"get", "ada", "script", ""}}},
		{"delete none", []op{{"delete", "ada", "script", ""}, {"get", "ada", "script", ""}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, api := range []string{"script", "other"} {
				for _, u := range []string{"ada", "grace"} {
					if err := g.Delete(u, api); err != nil {
						t.Fatal(err)
					}
				}
			}
			for i, o := range c.ops {
				var err error
				switch o.do {
				case "put":
					err = g.Put(o.user, o.api, []byte(o.sealed))
				case "delete":
					err = g.Delete(o.user, o.api)
				case "get":
					var got []byte
					got, err = g.Get(o.user, o.api)
					if o.sealed == "" && got != nil || !bytes.Equal(got, []byte(o.sealed)) && o.sealed != "" {
						t.Errorf("op %d get %s/%s: got %q; want %q", i, o.user, o.api, got, o.sealed)
					}
				}
				if err != nil {
					t.Fatalf("op %d %s: %v", i, o.do, err)
				}
			}
		})
	}
}

// loaded is what Load hands over: grant digest -> its sealed value and access tokens.
type loaded map[string]struct {
	sealed string
	access map[string]string
}

func load(t *testing.T, s *ScriptTokens) loaded {
	t.Helper()
	out := loaded{}
	err := s.Load(func(g string, sealed []byte, access map[string][]byte) {
		a := map[string]string{}
		for k, v := range access {
			a[k] = string(v)
		}
		out[g] = struct {
			sealed string
			access map[string]string
		}{string(sealed), a}
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestScriptTokens(t *testing.T) {
	type op struct {
		do            string // grant, access, delgrant, delaccess
		grant, access string
		sealed        string
	}
	type want struct {
		grants map[string]string            // digest -> sealed
		access map[string]map[string]string // grant -> access -> sealed
		getAcc map[string]string            // access -> its grant, as GetAccess answers ("" = none)
	}
	for _, c := range []struct {
		name string
		ops  []op
		want want
	}{
		{"empty", nil, want{grants: map[string]string{}, access: map[string]map[string]string{}, getAcc: map[string]string{"a1": ""}}},
		{"grant with two tokens", []op{{"grant", "g1", "", "G1"}, {"access", "g1", "a1", "A1"}, {"access", "g1", "a2", "A2"}},
			want{grants: map[string]string{"g1": "G1"}, access: map[string]map[string]string{"g1": {"a1": "A1", "a2": "A2"}},
				getAcc: map[string]string{"a1": "g1", "a2": "g1", "a3": ""}}},
		{"a grant without tokens is loaded", []op{{"grant", "g1", "", "G1"}, {"grant", "g2", "", "G2"}, {"access", "g2", "a1", "A1"}},
			want{grants: map[string]string{"g1": "G1", "g2": "G2"}, access: map[string]map[string]string{"g1": {}, "g2": {"a1": "A1"}},
				getAcc: map[string]string{"a1": "g2"}}},
		{"a token of a grant not kept is not kept", []op{{"access", "g9", "a1", "A1"}},
			want{grants: map[string]string{}, access: map[string]map[string]string{}, getAcc: map[string]string{"a1": ""}}},
		{"deleting a grant deletes its tokens", []op{{"grant", "g1", "", "G1"}, {"access", "g1", "a1", "A1"}, {"grant", "g2", "", "G2"},
			{"access", "g2", "a2", "A2"}, {"delgrant", "g1", "", ""}},
			want{grants: map[string]string{"g2": "G2"}, access: map[string]map[string]string{"g2": {"a2": "A2"}},
				getAcc: map[string]string{"a1": "", "a2": "g2"}}},
		{"deleting a token", []op{{"grant", "g1", "", "G1"}, {"access", "g1", "a1", "A1"}, {"access", "g1", "a2", "A2"},
			{"delaccess", "g1", "a1", ""}, {"delaccess", "g1", "a9", ""}, {"delgrant", "g9", "", ""}},
			want{grants: map[string]string{"g1": "G1"}, access: map[string]map[string]string{"g1": {"a2": "A2"}},
				getAcc: map[string]string{"a1": "", "a2": "g1"}}},
		{"put replaces", []op{{"grant", "g1", "", "old"}, {"grant", "g1", "", "G1"}, {"access", "g1", "a1", "old"}, {"access", "g1", "a1", "A1"}},
			want{grants: map[string]string{"g1": "G1"}, access: map[string]map[string]string{"g1": {"a1": "A1"}}, getAcc: map[string]string{"a1": "g1"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := NewScriptTokens(pgtest.Open(t))
			for i, o := range c.ops {
				var err error
				switch o.do {
				case "grant":
					err = s.PutGrant(o.grant, []byte(o.sealed))
				case "access":
					err = s.PutAccess(o.grant, o.access, []byte(o.sealed))
				case "delgrant":
					err = s.DeleteGrant(o.grant)
				case "delaccess":
					err = s.DeleteAccess(o.grant, o.access)
				}
				if err != nil {
					t.Fatalf("op %d %s: %v", i, o.do, err)
				}
			}
			got := load(t, s)
			if len(got) != len(c.want.grants) {
				t.Errorf("loaded grants: got %v; want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(c.want.grants)))
			}
			for d, sealed := range c.want.grants {
				if got[d].sealed != sealed || !maps.Equal(got[d].access, c.want.access[d]) {
					t.Errorf("loaded grant %s: got %q %v; want %q %v", d, got[d].sealed, got[d].access, sealed, c.want.access[d])
				}
				if g, err := s.GetGrant(d); err != nil || string(g) != sealed {
					t.Errorf("GetGrant(%s): got %q, %v; want %q", d, g, err, sealed)
				}
			}
			if g, err := s.GetGrant("g-none"); g != nil || err != nil {
				t.Errorf("GetGrant of none: got %q, %v; want nil, nil", g, err)
			}
			for a, wantGrant := range c.want.getAcc {
				g, sealed, err := s.GetAccess(a)
				switch {
				case err != nil:
					t.Errorf("GetAccess(%s): %v", a, err)
				case wantGrant == "" && (sealed != nil || g != ""):
					t.Errorf("GetAccess(%s): got %q %q; want none", a, g, sealed)
				case wantGrant != "" && (g != wantGrant || string(sealed) != c.want.access[wantGrant][a]):
					t.Errorf("GetAccess(%s): got %q %q; want %q %q", a, g, sealed, wantGrant, c.want.access[wantGrant][a])
				}
			}
		})
	}
}

var _ script.SharedCodeStore = (*ScriptTokens)(nil)

// TestScriptCodes: a code is redeemed once (the first UseCode says unused, every later one
// used, with the value SetCode gave); an expired or deleted code is none; keeping a new code
// deletes the expired ones.
func TestScriptCodes(t *testing.T) {
	db := pgtest.Open(t)
	s := NewScriptTokens(db)
	future := time.Now().Add(time.Minute)
	if err := s.PutCode("c1", []byte("first"), future); err != nil {
		t.Fatal(err)
	}
	sealed, used, err := s.UseCode("c1")
	if err != nil || string(sealed) != "first" || used {
		t.Fatalf("first UseCode: got %q, used %v, %v; want first, unused", sealed, used, err)
	}
	if err := s.SetCode("c1", []byte("gave rt")); err != nil {
		t.Fatal(err)
	}
	sealed, used, err = s.UseCode("c1")
	if err != nil || string(sealed) != "gave rt" || !used {
		t.Fatalf("second UseCode: got %q, used %v, %v; want gave rt, used", sealed, used, err)
	}
	if err := s.PutCode("old", []byte("x"), time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if sealed, _, err := s.UseCode("old"); sealed != nil || err != nil {
		t.Errorf("an expired code: got %q, %v; want none", sealed, err)
	}
	if err := s.PutCode("c2", []byte("y"), future); err != nil { // sweeps "old"
		t.Fatal(err)
	}
	var n int
	if err := db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM script_codes WHERE digest = 'old'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("the expired code after keeping another: %d rows (%v); want 0", n, err)
	}
	if err := s.DeleteCode("c2"); err != nil {
		t.Fatal(err)
	}
	if sealed, _, err := s.UseCode("c2"); sealed != nil || err != nil {
		t.Errorf("a deleted code: got %q, %v; want none", sealed, err)
	}
}
