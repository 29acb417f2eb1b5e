package script

import (
	"bytes"
	"net/http"
	"sync"
	"testing"
	"time"
)

// codeMapTokens is a SharedTokenStore that keeps codes too, in maps, as a shared database
// would.
type codeMapTokens struct {
	sharedMapTokens
	cmu   sync.Mutex
	codes map[string]*mapCode
}

type mapCode struct {
	sealed  []byte
	expires time.Time
	used    bool
}

func (m *codeMapTokens) PutCode(code string, sealed []byte, expires time.Time) error {
	m.cmu.Lock()
	defer m.cmu.Unlock()
	m.codes[code] = &mapCode{sealed: bytes.Clone(sealed), expires: expires}
	return nil
}

func (m *codeMapTokens) UseCode(code string) ([]byte, bool, error) {
	m.cmu.Lock()
	defer m.cmu.Unlock()
	c := m.codes[code]
	if c == nil { // the sandbox checks the expiry by its own clock, a fake one here
		return nil, false, nil
	}
	before := c.used
	c.used = true
	return bytes.Clone(c.sealed), before, nil
}

func (m *codeMapTokens) SetCode(code string, sealed []byte) error {
	m.cmu.Lock()
	defer m.cmu.Unlock()
	if c := m.codes[code]; c != nil {
		c.sealed = bytes.Clone(sealed)
	}
	return nil
}

func (m *codeMapTokens) DeleteCode(code string) error {
	m.cmu.Lock()
	defer m.cmu.Unlock()
	delete(m.codes, code)
	return nil
}

// TestSharedCodesRedeemedOnAnotherReplica: with a store that keeps codes, a code issued by
// the consent page of one handler is redeemed at the token endpoint of another (a callback
// reaching another replica), once: a second redemption, on either, is refused and revokes
// what the first obtained. Without it, the other handler does not know the code.
func TestSharedCodesRedeemedOnAnotherReplica(t *testing.T) {
	const path = "/v1/projects/" + SeedScriptID
	for _, shared := range []bool{true, false} {
		var store TokenStore = sharedMapTokens{newMapTokens()}
		if shared {
			store = &codeMapTokens{sharedMapTokens: sharedMapTokens{newMapTokens()}, codes: map[string]*mapCode{}}
		}
		opts := Options{Tokens: store, TokenKey: bytes.Repeat([]byte{3}, 32), SealKey: bytes.Repeat([]byte{4}, 32)}
		a, c := newOAuthTest(t, opts)
		opts.Now = c.now
		b := New(opts)

		code := getCode(t, a, scopeProjects)
		status, m := exchange(t, b, code)
		if !shared {
			if status != http.StatusBadRequest || m["error"] != "invalid_grant" {
				t.Errorf("without shared codes, A's code on B: got %d %v; want invalid_grant", status, m)
			}
			continue
		}
		access, _ := m["access_token"].(string)
		if status != http.StatusOK || access == "" {
			t.Fatalf("A's code redeemed on B: got %d %v; want 200 with tokens", status, m)
		}
		if code, _ := callAuth(t, a, "GET", path, "", "Bearer "+access); code != 200 {
			t.Errorf("the token B gave, on A: got %d; want 200", code)
		}
		for name, h := range map[string]http.Handler{"A": a, "B": b} {
			if status, m := exchange(t, h, code); status != http.StatusBadRequest || m["error"] != "invalid_grant" {
				t.Errorf("the code again, on %s: got %d %v; want invalid_grant", name, status, m)
			}
		}
		if code, _ := callAuth(t, a, "GET", path, "", "Bearer "+access); code != 401 {
			t.Errorf("after the code's second use, its token on A: got %d; want 401 (revoked)", code)
		}
	}
}
