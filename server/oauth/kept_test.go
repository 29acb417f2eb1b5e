package oauth

import (
	"bytes"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// mapGrants is a GrantStore in a map, as a database would keep it.
type mapGrants struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (m *mapGrants) Put(user, api string, sealed []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[user+"/"+api] = bytes.Clone(sealed)
	return nil
}

func (m *mapGrants) Get(user, api string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return bytes.Clone(m.m[user+"/"+api]), nil
}

func (m *mapGrants) Delete(user, api string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.m, user+"/"+api)
	return nil
}

// TestKeptGrantOutlivesTheService: a grant signed in on one Service is used, and renewed, by a
// new Service over the same store and key (a restart, or another replica), sealed at rest;
// under another key it is not; a sign-out removes it.
func TestKeptGrantOutlivesTheService(t *testing.T) {
	store := &mapGrants{m: map[string][]byte{}}
	key := bytes.Repeat([]byte{1}, 32)
	with := func(k []byte) func(*Options) {
		return func(o *Options) { o.Grants, o.GrantKey = store, k }
	}
	first := newEnvWith(t, with(key))
	first.as.ttl = time.Second
	first.get(t, "/oauth/start?api=script&scope=s.projects&scope=userinfo.email")
	auth, err := first.bearer(t)
	if err != nil || auth == "" {
		t.Fatalf("first service: got %q, %v; want a bearer token", auth, err)
	}
	for k, v := range store.m {
		if bytes.Contains(v, []byte("access-")) || bytes.Contains(v, []byte("refresh-")) {
			t.Errorf("stored %s holds a token in the clear: %q", k, v)
		}
	}

	// A second service (a restart) with the same store and key: the same grant, then renewed.
	second := newEnvWith(t, with(key))
	second.as = first.as
	second.svc.providers = first.svc.providers
	st, _ := second.status(t)
	if !st.SignedIn || st.Who != "ada@example.com" || !st.Renews {
		t.Fatalf("status on the second service: got %+v; want signed in as ada@example.com, renewing", st)
	}
	if got, err := second.bearer(t); got != auth || err != nil {
		t.Errorf("bearer on the second service: got %q, %v; want the first one's %q", got, err, auth)
	}
	time.Sleep(1100 * time.Millisecond)
	renewed, err := second.bearer(t)
	if err != nil || renewed == auth || !first.as.valid(strings.TrimPrefix(renewed, "Bearer ")) {
		t.Fatalf("bearer after expiry: got %q, %v; want a new live token", renewed, err)
	}

	// A third (after another restart) starts from the renewed token.
	third := newEnvWith(t, with(key))
	third.svc.providers = first.svc.providers
	if got, _ := third.bearer(t); got != renewed {
		t.Errorf("bearer on the third service: got %q; want the renewed %q", got, renewed)
	}

	// Another secret key does not open it, and forgets it.
	other := newEnvWith(t, with(bytes.Repeat([]byte{2}, 32)))
	other.svc.providers = first.svc.providers
	if got, err := other.bearer(t); got != "" || err != nil {
		t.Errorf("bearer under another key: got %q, %v; want none (the API key)", got, err)
	}
	if len(store.m) != 0 {
		t.Errorf("got %d grants kept after one failed to open; want it removed", len(store.m))
	}
}

// TestSignOutRemovesTheKeptGrant: after Sign out, a new Service finds no grant.
func TestSignOutRemovesTheKeptGrant(t *testing.T) {
	store := &mapGrants{m: map[string][]byte{}}
	key := bytes.Repeat([]byte{1}, 32)
	e := newEnvWith(t, func(o *Options) { o.Grants, o.GrantKey = store, key })
	e.get(t, "/oauth/start?api=script&scope=s.projects")
	if len(store.m) != 1 {
		t.Fatalf("got %d grants kept after a sign-in; want 1", len(store.m))
	}
	req, _ := http.NewRequest("POST", e.loupe.URL+"/oauth/signout?api=script", nil)
	res, err := e.browser.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if len(store.m) != 0 {
		t.Errorf("got %d grants kept after Sign out; want none", len(store.m))
	}
}
