package oauth

import (
	"context"
	"time"

	"golang.org/x/oauth2"
)

// GrantStore keeps users' grants beyond the process: each is sealed by the Service
// (AES-256-GCM under Options.GrantKey) before it is handed over, so a store holds no token in
// the clear and never logs one. Implementations are safe for concurrent use; the server's are
// server/internal/serverdb (bbolt in the data directory) and, with server.database,
// server/internal/pgoauth (PostgreSQL, shared by the replicas: Options.SharedGrants).
type GrantStore interface {
	// Put keeps user's sealed grant for api, replacing the one before.
	Put(user, api string, sealed []byte) error
	// Get returns user's sealed grant for api; nil (and no error) when there is none.
	Get(user, api string) ([]byte, error)
	// Delete forgets user's grant for api; none is no error.
	Delete(user, api string) error
}

// maxKept bounds a sealed grant read back from a store.
const maxKept = 64 << 10

// keptGrant is a grant as it is sealed for the store. User and API are sealed with it, so that
// a grant copied to another user's key in the store does not open there.
type keptGrant struct {
	User         string    `json:"u"`
	API          string    `json:"a"`
	AccessToken  string    `json:"at"`
	TokenType    string    `json:"tt,omitempty"`
	RefreshToken string    `json:"rt,omitempty"`
	Expiry       time.Time `json:"e"`
	Scopes       []string  `json:"s"`
	Who          string    `json:"w,omitempty"`
	Created      time.Time `json:"c"`
}

// keep writes g, with tok as its current token, to the store; a failure is logged (never a
// token) and the grant stays in memory.
func (s *Service) keep(user, api string, g *grant, tok *oauth2.Token) {
	if s.opts.Grants == nil {
		return
	}
	sealed, err := s.kept.Seal(keptGrant{User: user, API: api, AccessToken: tok.AccessToken, TokenType: tok.TokenType,
		RefreshToken: tok.RefreshToken, Expiry: tok.Expiry, Scopes: g.grantedScopes(), Who: g.who, Created: g.created})
	if err == nil {
		if err = s.opts.Grants.Put(user, api, []byte(sealed)); err == nil {
			g.setSealed([]byte(sealed))
		}
	}
	if err != nil {
		s.opts.Logger.Error("oauth grant not kept; it lasts until a restart", "user", user, "api", api, "err", err)
	}
}

// unkeep removes user's grant for api from the store.
func (s *Service) unkeep(user, api string) {
	if s.opts.Grants == nil {
		return
	}
	if err := s.opts.Grants.Delete(user, api); err != nil {
		s.opts.Logger.Error("oauth grant not removed from the store", "user", user, "api", api, "err", err)
	}
}

// restore returns user's grant for api from the store, in use again, or nil: none kept, the
// API no longer signs in, or the sealed grant does not open (another secret key), which is
// removed.
func (s *Service) restore(user, api string) *grant {
	if s.opts.Grants == nil || s.provider(api) == nil {
		return nil
	}
	sealed, err := s.opts.Grants.Get(user, api)
	if err != nil {
		s.opts.Logger.Error("oauth grant not read from the store", "user", user, "api", api, "err", err)
		return nil
	}
	g := s.open(user, api, sealed)
	if g == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur := s.grants[grantKey{user, api}]; cur != nil { // restored at once by another call
		g.release(s.opts.Secrets)
		return cur
	}
	s.grants[grantKey{user, api}] = g
	return g
}

// open builds the grant the store's sealed bytes hold, watched and remembering them, or nil:
// none (nil bytes), the API no longer signs in, or the bytes do not open (another secret key,
// damage), which are removed from the store. The caller puts it in use.
func (s *Service) open(user, api string, sealed []byte) *grant {
	p := s.provider(api)
	if p == nil || sealed == nil {
		return nil
	}
	var k keptGrant
	if err := s.kept.Open(string(sealed), maxKept, &k); err != nil || k.User != user || k.API != api {
		s.opts.Logger.Warn("oauth grant kept under another secret key or damaged; forgotten", "user", user, "api", api)
		s.unkeep(user, api)
		return nil
	}
	tok := &oauth2.Token{AccessToken: k.AccessToken, TokenType: k.TokenType, RefreshToken: k.RefreshToken, Expiry: k.Expiry}
	g := newGrant(s.clientContext(context.Background(), user), p.oauthConfig("", k.Scopes), tok, s.opts.Secrets)
	g.scopes, g.who, g.created, g.sealed = k.Scopes, k.Who, k.Created, sealed
	s.watch(user, api, g)
	return g
}

// watch keeps g in the store whenever it renews its token (a provider may rotate the refresh
// token too).
func (s *Service) watch(user, api string, g *grant) {
	if s.opts.Grants == nil {
		return
	}
	g.renewed = func(tok *oauth2.Token) {
		s.mu.Lock()
		current := s.grants[grantKey{user, api}] == g
		s.mu.Unlock()
		if current { // not one replaced by a new sign-in while a call renewed it
			s.keep(user, api, g, tok)
		}
	}
}
