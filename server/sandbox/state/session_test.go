package state_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"loupe/server/internal/clientip"
	"loupe/server/sandbox/state"
)

// TestSessionIDs: the three kinds of session never collide, a credential is not readable in its
// session, and only cookie values NewCookie makes name a session.
func TestSessionIDs(t *testing.T) {
	sess, c := state.NewCookie(true)
	if !c.HttpOnly || !c.Secure || c.SameSite != http.SameSiteLaxMode || c.Name != state.CookieName || c.Path != "/" {
		t.Errorf("cookie: got %+v; want HttpOnly, Secure, SameSite=Lax, Path=/", c)
	}
	if got, ok := state.CookieSession(c.Value); !ok || got != sess {
		t.Errorf("CookieSession(NewCookie's value): got %q, %v; want %q", got, ok, sess)
	}
	if s2, _ := state.NewCookie(false); s2 == sess {
		t.Errorf("two NewCookie: got the same session %q; want random ones", sess)
	}
	for _, bad := range []string{"", "ada", "user:ada", strings.Repeat("A", 23), strings.Repeat("A", 21) + "!!"} {
		if _, ok := state.CookieSession(bad); ok {
			t.Errorf("CookieSession(%q): got ok; want refused", bad)
		}
	}
	cred := state.CredentialSession("Bearer sk-secret")
	if strings.Contains(cred, "secret") || !strings.HasPrefix(cred, "key:") || cred == state.CredentialSession("Bearer sk-other") {
		t.Errorf("CredentialSession: got %q; want an opaque hash, distinct per credential", cred)
	}
	if state.UserSession("ada") == state.CredentialSession("ada") || state.UserSession("ada") == "ada" {
		t.Errorf("UserSession(ada) collides")
	}
	if got := state.SessionOf(context.Background()); got != state.Local {
		t.Errorf("SessionOf(no session): got %q; want %q", got, state.Local)
	}
}

// TestHeader: SetHeader carries the context's session over the internal hop and overwrites a
// header the caller sent; TrustHeader restores it into the context and removes the header.
func TestHeader(t *testing.T) {
	var got string
	var leaked string
	h := state.TrustHeader(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = state.SessionOf(r.Context())
		leaked = r.Header.Get(state.Header)
	}))
	for _, c := range []struct {
		name, ctxSession, sent, want string
	}{
		{"the context's session", "user:ada", "", "user:ada"},
		{"a forged header is overwritten", "user:ada", "user:bob", "user:ada"},
		{"no session in the context: the forged header is removed", "", "user:bob", state.Local},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			if c.ctxSession != "" {
				ctx = state.WithSession(ctx, c.ctxSession)
			}
			r := httptest.NewRequest("GET", "/sandbox/script/v1/processes", nil).WithContext(ctx)
			if c.sent != "" {
				r.Header.Set(state.Header, c.sent)
			}
			state.SetHeader(r)
			h.ServeHTTP(httptest.NewRecorder(), r.WithContext(context.Background()))
			if got != c.want || leaked != "" {
				t.Errorf("got session %q (header left %q); want %q and no header", got, leaked, c.want)
			}
		})
	}
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set(state.Header, "user:bob")
	state.StripHeader(r)
	if v := r.Header.Get(state.Header); v != "" {
		t.Errorf("StripHeader: got %q; want none", v)
	}
}

// TestClientHeader: SetHeader carries the context's client address beside its session over the
// internal hop, TrustHeader restores both into the context and removes both headers, and
// StripHeader removes a client header sent from outside.
func TestClientHeader(t *testing.T) {
	var session, client, leaked string
	h := state.TrustHeader(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		session, client = state.SessionOf(r.Context()), clientip.Of(r.Context())
		leaked = r.Header.Get(state.Header) + r.Header.Get(state.ClientHeader)
	}))
	for _, c := range []struct{ name, session, client, sent string }{
		{"both", "user:ada", "10.0.0.7", ""},
		{"the client alone", "", "10.0.0.7", ""},
		{"a forged client header is overwritten", "user:ada", "10.0.0.7", "192.0.2.1"},
		{"no client in the context: a forged one is removed", "user:ada", "", "192.0.2.1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			if c.session != "" {
				ctx = state.WithSession(ctx, c.session)
			}
			if c.client != "" {
				ctx = clientip.With(ctx, c.client)
			}
			r := httptest.NewRequest("GET", "/sandbox/script/v1/processes", nil).WithContext(ctx)
			if c.sent != "" {
				r.Header.Set(state.ClientHeader, c.sent)
			}
			state.SetHeader(r)
			h.ServeHTTP(httptest.NewRecorder(), r.WithContext(context.Background()))
			wantSession := c.session
			if wantSession == "" {
				wantSession = state.Local
			}
			if session != wantSession || client != c.client || leaked != "" {
				t.Errorf("got session %q, client %q (headers left %q); want %q, %q and none", session, client, leaked, wantSession, c.client)
			}
		})
	}
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set(state.ClientHeader, "192.0.2.1")
	state.StripHeader(r)
	if v := r.Header.Get(state.ClientHeader); v != "" {
		t.Errorf("StripHeader: got %q; want none", v)
	}
}
