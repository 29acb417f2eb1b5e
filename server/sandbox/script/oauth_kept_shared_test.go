package script

import (
	"bytes"
	"net/http"
	"net/url"
	"testing"
)

// sharedMapTokens is a SharedTokenStore in maps, as a shared database would keep it.
type sharedMapTokens struct{ *mapTokens }

func (m sharedMapTokens) GetGrant(g string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return bytes.Clone(m.grants[g]), nil
}

func (m sharedMapTokens) GetAccess(a string) (string, []byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for g, tokens := range m.access {
		if sealed, ok := tokens[a]; ok {
			return g, bytes.Clone(sealed), nil
		}
	}
	return "", nil, nil
}

// TestSharedTokensFollowTheStore: two handlers started together on one store (two replicas):
// with a SharedTokenStore, the tokens issued on one are accepted on the other at once, a
// refresh on the other works on the first, and a revocation on the first is refused on the
// other; with a plain TokenStore, tokens issued after the other's start are unknown to it.
func TestSharedTokensFollowTheStore(t *testing.T) {
	const path = "/v1/projects/" + SeedScriptID
	for _, shared := range []bool{true, false} {
		plain := newMapTokens()
		var store TokenStore = plain
		if shared {
			store = sharedMapTokens{plain}
		}
		opts := Options{Tokens: store, TokenKey: bytes.Repeat([]byte{3}, 32), SealKey: bytes.Repeat([]byte{4}, 32)}
		a, c := newOAuthTest(t, opts)
		opts.Now = c.now
		b := New(opts)

		access, refresh := signIn(t, a, scopeProjects)
		code, _ := callAuth(t, b, "GET", path, "", "Bearer "+access)
		if want := map[bool]int{true: 200, false: 401}[shared]; code != want {
			t.Fatalf("shared=%v: A's access token on B: got %d; want %d", shared, code, want)
		}
		if !shared {
			continue
		}
		status, m := refreshWith(t, b, refresh, "")
		renewed, _ := m["access_token"].(string)
		if status != 200 || renewed == "" {
			t.Fatalf("A's refresh token on B: got %d %v; want 200 with a token", status, m)
		}
		if code, _ := callAuth(t, a, "GET", path, "", "Bearer "+renewed); code != 200 {
			t.Errorf("B's renewed token on A: got %d; want 200", code)
		}
		if code, _ := callAuth(t, b, "GET", path, "", "Bearer "+renewed); code != 200 {
			t.Errorf("B's renewed token on B: got %d; want 200", code)
		}

		// A revokes an access token, then the grant: B refuses them at the next request.
		if status, _ := postToken(t, a, "/oauth/revoke", url.Values{"token": {access}}, basicAuth); status != 200 {
			t.Fatalf("revoke the access token on A: got %d; want 200", status)
		}
		if code, _ := callAuth(t, b, "GET", path, "", "Bearer "+access); code != 401 {
			t.Errorf("an access token revoked on A, on B: got %d; want 401", code)
		}
		if status, _ := postToken(t, a, "/oauth/revoke", url.Values{"token": {refresh}}, basicAuth); status != 200 {
			t.Fatalf("revoke the grant on A: got %d; want 200", status)
		}
		if code, _ := callAuth(t, b, "GET", path, "", "Bearer "+renewed); code != 401 {
			t.Errorf("a token of a grant revoked on A, on B: got %d; want 401", code)
		}
		if status, m := refreshWith(t, b, refresh, ""); status != 400 || m["error"] != "invalid_grant" {
			t.Errorf("a refresh token revoked on A, on B: got %d %v; want invalid_grant", status, m)
		}
	}
}

// TestSharedStartLoadsNothing: two replicas on a shared store issue more grants together than
// one process's tables hold (maxLive 5: 4 each, 8 in all); a third replica started then
// evicts none of them from the store (it loads nothing at start: its bounds would have
// evicted the others' grants), and accepts every one of their tokens.
func TestSharedStartLoadsNothing(t *testing.T) {
	defer func(n int) { maxLive = n }(maxLive)
	maxLive = 5
	store := sharedMapTokens{newMapTokens()}
	opts := Options{Tokens: store, TokenKey: bytes.Repeat([]byte{3}, 32), SealKey: bytes.Repeat([]byte{4}, 32)}
	a, c := newOAuthTest(t, opts)
	opts.Now = c.now
	b := New(opts)
	var tokens []string
	for i := range 8 {
		access, _ := signIn(t, []http.Handler{a, b}[i%2], scopeProjects)
		tokens = append(tokens, access)
	}
	third := New(opts)
	store.mu.Lock()
	kept := len(store.grants)
	store.mu.Unlock()
	if kept != 8 {
		t.Fatalf("grants in the store after a third replica started: got %d; want the 8 issued", kept)
	}
	for i, tok := range tokens {
		if code, _ := callAuth(t, third, "GET", "/v1/projects/"+SeedScriptID, "", "Bearer "+tok); code != 200 {
			t.Errorf("token %d on the third replica: got %d; want 200", i, code)
		}
	}
}
