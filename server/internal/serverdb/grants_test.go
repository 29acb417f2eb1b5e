package serverdb

import (
	"testing"
	"time"
)

func TestGrants(t *testing.T) {
	dir := t.TempDir()
	d, _ := open(t, dir, time.Now())
	g := d.Grants()
	if err := g.Put("alice", "script", []byte("sealed-1")); err != nil {
		t.Fatal(err)
	}
	g.Put("bob", "script", []byte("sealed-2"))
	g.Put("bob", "script", []byte("sealed-3"))
	d.Close()
	d, _ = open(t, dir, time.Now())
	g = d.Grants()
	for _, tt := range []struct{ user, api, want string }{
		{"alice", "script", "sealed-1"},
		{"bob", "script", "sealed-3"},
		{"alice", "chat", ""},
	} {
		if got, err := g.Get(tt.user, tt.api); string(got) != tt.want || err != nil {
			t.Errorf("Get(%s, %s): got %q, %v; want %q", tt.user, tt.api, got, err, tt.want)
		}
	}
	g.Delete("alice", "script")
	if got, _ := g.Get("alice", "script"); got != nil {
		t.Errorf("after Delete: got %q; want nil", got)
	}
}
