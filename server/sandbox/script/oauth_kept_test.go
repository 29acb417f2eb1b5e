package script

import (
	"bytes"
	"errors"
	"maps"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// mapTokens is a TokenStore in maps, as a database would keep it.
type mapTokens struct {
	mu     sync.Mutex
	grants map[string][]byte
	access map[string]map[string][]byte
	fail   bool // every Put fails
}

func newMapTokens() *mapTokens {
	return &mapTokens{grants: map[string][]byte{}, access: map[string]map[string][]byte{}}
}

func (m *mapTokens) PutGrant(g string, sealed []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail {
		return errors.New("disk full")
	}
	m.grants[g] = bytes.Clone(sealed)
	m.access[g] = map[string][]byte{}
	return nil
}

func (m *mapTokens) PutAccess(g, a string, sealed []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail {
		return errors.New("disk full")
	}
	if m.access[g] != nil {
		m.access[g][a] = bytes.Clone(sealed)
	}
	return nil
}

func (m *mapTokens) DeleteGrant(g string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.grants, g)
	delete(m.access, g)
	return nil
}

func (m *mapTokens) DeleteAccess(g, a string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.access[g], a)
	return nil
}

func (m *mapTokens) Load(f func(string, []byte, map[string][]byte)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for g, sealed := range m.grants {
		f(g, sealed, maps.Clone(m.access[g]))
	}
	return nil
}

// TestTokensOutliveTheHandler: the tokens one handler issued work on a new handler over the
// same store and keys (a restart, or a replica on a shared store): the access token until it
// expires, the refresh token after; a revocation there holds on the next; nothing is stored
// in the clear; another key opens nothing.
func TestTokensOutliveTheHandler(t *testing.T) {
	store := newMapTokens()
	key := bytes.Repeat([]byte{3}, 32)
	opts := Options{Tokens: store, TokenKey: key, SealKey: bytes.Repeat([]byte{4}, 32)}
	first, c := newOAuthTest(t, opts)
	access, refresh := signIn(t, first, scopeProjects)
	id := openConsent(t, first, authorizeQuery(scopeProjects, nil)) // a consent page open over the restart
	for g, sealed := range store.grants {
		if strings.Contains(string(sealed), "sandbox-rt.") || strings.Contains(g, "sandbox-rt.") {
			t.Errorf("the store holds a refresh token in the clear")
		}
	}

	opts.Now = c.now
	second := New(opts)
	const path = "/v1/projects/" + SeedScriptID
	if code, body := callAuth(t, second, "GET", path, "", "Bearer "+access); code != 200 {
		t.Errorf("the access token on the new handler: got %d %s; want 200", code, body)
	}
	if w := answerConsent(second, id, "allow"); w.Code != 302 || !strings.Contains(w.Header().Get("Location"), "code=") {
		t.Errorf("a consent form from before the restart: got %d %s; want 302 with a code", w.Code, w.Header().Get("Location"))
	}
	c.advance(2 * time.Hour)
	if code, _ := callAuth(t, second, "GET", path, "", "Bearer "+access); code != 401 {
		t.Errorf("the access token past its hour: got %d; want 401", code)
	}
	status, m := refreshWith(t, second, refresh, "")
	renewed, _ := m["access_token"].(string)
	if status != 200 || renewed == "" {
		t.Fatalf("refresh on the new handler: got %d %v; want 200 with a token", status, m)
	}
	if code, _ := callAuth(t, second, "GET", path, "", "Bearer "+renewed); code != 200 {
		t.Errorf("the renewed token: got %d; want 200", code)
	}
	if status, _ := postToken(t, second, "/oauth/revoke", url.Values{"token": {refresh}}, basicAuth); status != 200 {
		t.Fatalf("revoke: got %d; want 200", status)
	}

	third := New(opts)
	if status, m := refreshWith(t, third, refresh, ""); status != 400 || m["error"] != "invalid_grant" {
		t.Errorf("refresh after a revocation before the restart: got %d %v; want invalid_grant", status, m)
	}
	if code, _ := callAuth(t, third, "GET", path, "", "Bearer "+renewed); code != 401 {
		t.Errorf("an access token of the revoked grant: got %d; want 401", code)
	}

	_, refresh = signIn(t, third, scopeProjects)
	other := New(Options{Now: c.now, Tokens: store, TokenKey: bytes.Repeat([]byte{5}, 32)})
	if status, _ := refreshWith(t, other, refresh, ""); status != 400 {
		t.Errorf("refresh on a handler with another key: got %d; want 400", status)
	}
	if len(store.grants) != 0 {
		t.Errorf("got %d grants kept after they failed to open; want them removed", len(store.grants))
	}
}

// TestTokenNotKeptIssuesNothing: when the store fails, the token endpoint answers 503 and no
// token was issued; the code may be tried again.
func TestTokenNotKeptIssuesNothing(t *testing.T) {
	store := newMapTokens()
	h, _ := newOAuthTest(t, Options{Tokens: store, TokenKey: bytes.Repeat([]byte{3}, 32)})
	code := getCode(t, h, scopeProjects)
	store.fail = true
	if status, m := exchange(t, h, code); status != 503 || m["error"] != "server_error" {
		t.Errorf("exchange with a failing store: got %d %v; want 503 server_error", status, m)
	}
	store.fail = false
	if status, m := exchange(t, h, code); status != 200 {
		t.Errorf("exchange again: got %d %v; want 200", status, m)
	}
}
