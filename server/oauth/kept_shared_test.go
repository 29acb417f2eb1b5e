package oauth

import (
	"bytes"
	"net/http"
	"testing"
	"time"
)

// TestSharedGrantsFollowTheStore: two Services on one shared store (two replicas) see each
// other's sign-in, renewal and sign-out at the next use; without SharedGrants the second keeps
// the grant it cached.
func TestSharedGrantsFollowTheStore(t *testing.T) {
	for _, shared := range []bool{true, false} {
		store := &mapGrants{m: map[string][]byte{}}
		key := bytes.Repeat([]byte{1}, 32)
		with := func(o *Options) { o.Grants, o.GrantKey, o.SharedGrants = store, key, shared }
		a, b := newEnvWith(t, with), newEnvWith(t, with)
		b.as, b.svc.providers = a.as, a.svc.providers
		a.as.ttl = time.Second

		if got, err := b.bearer(t); got != "" || err != nil {
			t.Fatalf("shared=%v: B before the sign-in: got %q, %v; want none", shared, got, err)
		}
		a.get(t, "/oauth/start?api=script&scope=s.projects")
		first, _ := a.bearer(t)
		if got, _ := b.bearer(t); got != first || first == "" {
			t.Fatalf("shared=%v: B after A's sign-in: got %q; want A's %q", shared, got, first)
		}

		// A renews (its token expired): B sends the renewed token when shared.
		time.Sleep(1100 * time.Millisecond)
		renewed, _ := a.bearer(t)
		if renewed == first {
			t.Fatalf("shared=%v: A after expiry: got the same token; want a renewed one", shared)
		}
		got, _ := b.bearer(t)
		if shared && got != renewed {
			t.Errorf("shared: B after A's renewal: got %q; want A's renewed %q", got, renewed)
		}

		// A signs out: B has no grant when shared.
		req, _ := http.NewRequest("POST", a.loupe.URL+"/oauth/signout?api=script", nil)
		res, err := a.browser.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		got, _ = b.bearer(t)
		switch {
		case shared && got != "":
			t.Errorf("shared: B after A's sign-out: got %q; want none (signed out)", got)
		case !shared && got == "":
			t.Errorf("not shared: B after A's sign-out: got none; want its cached grant (the old behaviour)")
		}
	}
}
