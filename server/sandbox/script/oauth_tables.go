package script

import (
	"crypto/sha256"
	"net/http"
	"strings"
	"time"

	"loupe/server/internal/bounded"
	"loupe/server/internal/clientip"
	"loupe/server/internal/seal"
	"loupe/server/sandbox/state"
)

// The authorization server's state, bounded so that anonymous clients cannot fill it for
// everyone (server/internal/bounded):
//
//   - A consent page keeps nothing on the server: its form carries the authorization request
//     sealed (server/internal/seal), so no flood of GET /oauth/authorize can push out a user
//     who is reading their consent page. A table of answered requests, bounded, stops a
//     consent from being answered twice (with a BoundedTokenStore, the store's, so that a
//     form answered on one replica is not answered again on another).
//   - Codes, grants (refresh tokens) and access tokens belong to their owner: a signed-in Loupe
//     user (their sandbox session, state.UserSession, which the Loupe server names on its own
//     token calls and on signed-in users' calls) or an anonymous client, counted by its address
//     (clientip). Each owner holds at most perOwner codes and grants, each grant at most
//     accessPerGrant access tokens; past maxLive anonymous entries the least recently used is
//     evicted, never a signed-in user's. With a BoundedTokenStore the store holds these
//     bounds across every replica (oauth_bounded_shared.go), and the tables are its cache.

// Bounds of the tables. Tests lower maxLive.
const (
	perOwner       = 16
	accessPerGrant = 2
	maxSealedReq   = 4096
)

// owner is who a code or grant belongs to.
type owner struct {
	client    string // the per-owner bound's key
	protected bool   // a signed-in user's (or the single local one's)
}

// ownerOf names r's owner.
func ownerOf(r *http.Request) owner {
	session := state.SessionOf(r.Context())
	if strings.HasPrefix(session, "user:") || session == state.Local {
		return owner{client: session, protected: true}
	}
	if c := clientip.Of(r.Context()); c != "" {
		return owner{client: c}
	}
	return owner{client: session}
}

// tables are the authorization server's bounded tables. The caller holds authServer.mu.
type tables struct {
	sealer   *seal.Sealer                       // consent forms
	keeper   *keeper                            // grants and access tokens kept beyond the process; nil: none
	answered *bounded.Table[[32]byte, struct{}] // consent requests answered, by digest
	codes    *bounded.Table[string, *authCode]
	refresh  *bounded.Table[string, *grant]
	access   *bounded.Table[string, *accessToken] // the client is the refresh token
}

// newTables makes the tables; now is the authorization server's clock. Consent forms are
// sealed with sealer; k keeps grants and access tokens (nil: in memory only). With a store
// only this process writes, the ones it kept before are loaded, and an entry the tables evict
// is forgotten there too. A store other processes write (SharedTokenStore) is read at each use
// instead: loading it all at start would make this process's bounds evict the others' tokens.
// A BoundedTokenStore evicts by its own bounds, so the tables' evictions stay in the process.
func newTables(now func() time.Time, sealer *seal.Sealer, k *keeper) *tables {
	t := &tables{sealer: sealer, keeper: k}
	evictKept := k.boundedStore() == nil
	t.answered = bounded.New(bounded.Options[[32]byte, struct{}]{Max: maxLive, PerClient: 4 * perOwner, Now: now})
	t.codes = bounded.New(bounded.Options[string, *authCode]{Max: maxLive, PerClient: perOwner, Now: now})
	t.access = bounded.New(bounded.Options[string, *accessToken]{Max: accessPerGrant * maxLive, PerClient: accessPerGrant,
		MaxProtected: accessPerGrant * maxLive, Now: now,
		OnEvict: func(tok string, at *accessToken) {
			if evictKept {
				t.keeper.deleteAccess(at.refresh, tok)
			}
		}})
	t.refresh = bounded.New(bounded.Options[string, *grant]{Max: maxLive, PerClient: perOwner, Now: now,
		OnEvict: func(rt string, _ *grant) {
			t.access.DeleteClient(rt)
			if evictKept {
				t.keeper.deleteGrant(rt)
			}
		}})
	if k != nil && k.shared == nil {
		t.load(now())
	}
	return t
}

// sealedRequest is an authorization request as its consent form carries it.
type sealedRequest struct {
	Client    string   `json:"c"`
	Redirect  string   `json:"r"`
	State     string   `json:"s"`
	Challenge string   `json:"p"`
	Scopes    []string `json:"o"`
	Expires   int64    `json:"e"`
}

// sealRequest returns req as its consent form's opaque request id.
func (t *tables) sealRequest(req *authRequest) string {
	id, _ := t.sealer.Seal(sealedRequest{Client: req.client.ID, Redirect: req.redirect, State: req.state,
		Challenge: req.challenge, Scopes: req.scopes, Expires: req.expires.Unix()})
	return id // the request's fields always encode
}

// takeRequest returns the request a consent form's id seals, once: not when it is not this
// server's, has expired at now, or was answered already (with a BoundedTokenStore, on any
// replica). err says the store that records the answers could not be used.
func (t *tables) takeRequest(id string, clients map[string]OAuthClient, by owner, now time.Time) (*authRequest, bool, error) {
	var sr sealedRequest
	if t.sealer.Open(id, maxSealedReq, &sr) != nil || !now.Before(time.Unix(sr.Expires, 0)) {
		return nil, false, nil
	}
	client, ok := clients[sr.Client]
	if !ok {
		return nil, false, nil
	}
	first, err := t.answer(sha256.Sum256([]byte(id)), by, time.Unix(sr.Expires, 0))
	if err != nil || !first {
		return nil, false, err
	}
	return &authRequest{client: client, redirect: sr.Redirect, state: sr.State, challenge: sr.Challenge,
		scopes: sr.Scopes, expires: time.Unix(sr.Expires, 0)}, true, nil
}

// expire forgets the codes, access tokens and answered requests past their lifetimes.
func (t *tables) expire(ttl time.Duration) {
	t.codes.Expire(codeTTL)
	t.access.Expire(ttl)
	t.answered.Expire(consentTTL)
}
