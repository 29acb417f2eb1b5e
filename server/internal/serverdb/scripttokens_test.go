package serverdb

import (
	"testing"
	"time"
)

func TestScriptTokens(t *testing.T) {
	dir := t.TempDir()
	d, _ := open(t, dir, time.Now())
	s := d.ScriptTokens()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.PutGrant("g1", []byte("grant-1")))
	must(s.PutAccess("g1", "a1", []byte("access-1")))
	must(s.PutAccess("g1", "a2", []byte("access-2")))
	must(s.PutGrant("g2", []byte("grant-2")))
	must(s.PutAccess("g2", "a3", []byte("access-3")))
	must(s.PutAccess("gone", "a4", []byte("access-4"))) // a grant revoked meanwhile
	must(s.DeleteAccess("g1", "a2"))
	must(s.DeleteGrant("g2"))
	must(s.DeleteGrant("never"))
	d.Close()
	d, _ = open(t, dir, time.Now())
	got := map[string]string{}
	must(d.ScriptTokens().Load(func(grant string, sealed []byte, access map[string][]byte) {
		got[grant] = string(sealed)
		for k, v := range access {
			got[grant+"/"+k] = string(v)
		}
	}))
	want := map[string]string{"g1": "grant-1", "g1/a1": "access-1"}
	if len(got) != len(want) || got["g1"] != want["g1"] || got["g1/a1"] != want["g1/a1"] {
		t.Errorf("got %v; want %v", got, want)
	}
}
