package oauth

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"loupe/server/proxy"
)

// grantKey is one Loupe user's grant for one API.
type grantKey struct{ user, api string }

// grant is what a sign-in left on the server: a token source that refreshes the access token
// before it expires, the scopes granted and who signed in.
type grant struct {
	src     oauth2.TokenSource // tracking, around a ReuseTokenSource
	scopes  []string
	who     string // the email userinfo answered; "" when unknown
	created time.Time

	renewed func(*oauth2.Token) // called with each new token after the first; nil: nothing

	mu      sync.Mutex
	sealed  []byte        // what the GrantStore holds of it, as last written or read; nil: nothing
	current *oauth2.Token // the token last handed out
	held    []string      // the token values registered with the masker
	secrets *proxy.SecretSet
}

// newGrant holds tok, refreshing it through cfg; every token value it sees is registered with
// secrets until release.
func newGrant(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token, secrets *proxy.SecretSet) *grant {
	g := &grant{secrets: secrets, created: time.Now()}
	g.track(tok)
	// Refresh early enough that a call never carries a token about to lapse, but not so early
	// that a short-lived token is refreshed at every call.
	early := 10 * time.Second
	if life := time.Until(tok.Expiry); !tok.Expiry.IsZero() && life/4 < early {
		early = max(life/4, 0)
	}
	refresher := cfg.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken})
	g.src = oauth2.ReuseTokenSourceWithExpiry(tok, refresher, early)
	return g
}

// Token returns a valid access token, refreshed when it is about to expire.
func (g *grant) Token() (*oauth2.Token, error) {
	tok, err := g.src.Token()
	if err != nil {
		return nil, err
	}
	if g.track(tok) && g.renewed != nil {
		g.renewed(tok)
	}
	return tok, nil
}

// track registers a token seen for the first time and lets go of those older than the
// previous one (an answer in flight may still echo the previous). It reports whether tok is new.
func (g *grant) track(tok *oauth2.Token) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.current != nil && g.current.AccessToken == tok.AccessToken {
		return false
	}
	if sc, ok := tok.Extra("scope").(string); ok && sc != "" {
		g.scopes = strings.Fields(sc)
	}
	keep := []string{tok.AccessToken, tok.RefreshToken}
	if prev := g.current; prev != nil {
		keep = append(keep, prev.AccessToken, prev.RefreshToken)
	}
	var held []string
	for _, v := range g.held {
		if containsString(keep, v) {
			held = append(held, v)
		} else {
			g.secrets.Remove(v)
		}
	}
	for _, v := range keep {
		if v != "" && !containsString(held, v) {
			g.secrets.Add(v)
			held = append(held, v)
		}
	}
	g.held = held
	g.current = tok
	return true
}

// setSealed remembers what the GrantStore holds of g.
func (g *grant) setSealed(b []byte) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sealed = b
}

// isSealed reports whether the GrantStore holds b of g: g is still the grant kept there.
func (g *grant) isSealed(b []byte) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.sealed != nil && bytes.Equal(g.sealed, b)
}

// snapshot returns the current token without refreshing it.
func (g *grant) snapshot() *oauth2.Token {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.current
}

// grantedScopes returns the scopes granted.
func (g *grant) grantedScopes() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.scopes...)
}

// release lets go of every token value held.
func (g *grant) release(secrets *proxy.SecretSet) {
	g.mu.Lock()
	held := g.held
	g.held = nil
	g.mu.Unlock()
	secrets.Remove(held...)
}

// store keeps g as user's grant for api, replacing (and returning) the one before; with a
// GrantStore, there too.
func (s *Service) store(user, api string, g *grant) *grant {
	s.keep(user, api, g, g.snapshot())
	s.watch(user, api, g)
	s.mu.Lock()
	defer s.mu.Unlock()
	k := grantKey{user, api}
	old := s.grants[k]
	s.grants[k] = g
	return old
}

// lookup returns user's grant for api, or nil; one kept in the GrantStore (by the process
// before a restart) is in use again. With Options.SharedGrants, the store is read at every
// lookup (kept_shared.go).
func (s *Service) lookup(user, api string) *grant {
	s.mu.Lock()
	g := s.grants[grantKey{user, api}]
	s.mu.Unlock()
	if s.opts.SharedGrants {
		return s.lookupShared(user, api, g)
	}
	if g == nil {
		g = s.restore(user, api)
	}
	return g
}

// forget drops user's grant for api if it is still g (nil: whichever), and returns it.
func (s *Service) forget(user, api string, g *grant) *grant {
	s.mu.Lock()
	k := grantKey{user, api}
	cur := s.grants[k]
	if cur == nil || (g != nil && cur != g) {
		s.mu.Unlock()
		return nil
	}
	delete(s.grants, k)
	s.mu.Unlock()
	s.unkeep(user, api)
	cur.release(s.opts.Secrets)
	return cur
}

func containsString(list []string, v string) bool {
	for _, s := range list {
		if s == v {
			return true
		}
	}
	return false
}
