package script

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"time"

	"loupe/server/internal/seal"
)

// TokenStore keeps the grants (refresh tokens) and access tokens the authorization server
// issued beyond the process, so that a token stays valid after a restart (and, on a shared
// database, on every replica). Each is keyed by the digest of its token and sealed by the
// sandbox (AES-256-GCM under Options.TokenKey): a store holds no token in the clear. Codes
// (a minute) stay in memory unless the store is a SharedCodeStore (oauth_codes_shared.go);
// answered consents (ten minutes) stay in memory unless it is a BoundedTokenStore
// (oauth_bounded_shared.go). Implementations are safe for concurrent use; the server's are
// server/internal/serverdb and, with server.database, server/internal/pgoauth (a
// BoundedTokenStore).
type TokenStore interface {
	// PutGrant keeps a grant under its digest.
	PutGrant(grant string, sealed []byte) error
	// PutAccess keeps an access token under its digest, with its grant's.
	PutAccess(grant, access string, sealed []byte) error
	// DeleteGrant forgets a grant and every access token kept with it; none is no error.
	DeleteGrant(grant string) error
	// DeleteAccess forgets an access token; none is no error.
	DeleteAccess(grant, access string) error
	// Load calls f with every grant kept (its digest and sealed value) and the access tokens
	// kept with it (sealed, by digest). f does not call the store.
	Load(f func(grant string, sealed []byte, access map[string][]byte)) error
}

// maxKept bounds a sealed grant or token read back from a store.
const maxKept = 8 << 10

// keptGrant is a grant as it is sealed for the store.
type keptGrant struct {
	Token     string    `json:"t"`
	Client    string    `json:"c"`
	Account   string    `json:"a"`
	Scopes    []string  `json:"s"`
	Issued    time.Time `json:"i"`
	Owner     string    `json:"o"`
	Protected bool      `json:"p,omitempty"`
}

// keptAccess is an access token as it is sealed for the store.
type keptAccess struct {
	Token     string    `json:"t"`
	Refresh   string    `json:"r"`
	Client    string    `json:"c"`
	Account   string    `json:"a"`
	Scopes    []string  `json:"s"`
	Issued    time.Time `json:"i"`
	Expires   time.Time `json:"e"`
	Protected bool      `json:"p,omitempty"`
}

// keeper writes the tables' grants and access tokens through to a TokenStore; a nil keeper
// keeps nothing.
type keeper struct {
	store  TokenStore
	shared SharedTokenStore // store, when other processes write it too; nil: not
	sealer *seal.Sealer
	log    *slog.Logger
}

// tokenDigest is a token's key in the store.
func tokenDigest(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}

// putGrant keeps grant g of refresh token rt, owned by by.
func (k *keeper) putGrant(rt string, g *grant, by owner) error {
	if k == nil {
		return nil
	}
	sealed, err := k.sealer.Seal(keptGrant{Token: rt, Client: g.client, Account: g.account, Scopes: g.scopes, Issued: g.issued,
		Owner: by.client, Protected: by.protected})
	switch bs := k.boundedStore(); {
	case err != nil:
	case bs != nil:
		err = bs.KeepGrant(tokenDigest(rt), []byte(sealed), by.ownership(perOwner))
	default:
		err = k.store.PutGrant(tokenDigest(rt), []byte(sealed))
	}
	return err
}

// putAccess keeps access token tok.
func (k *keeper) putAccess(tok string, at *accessToken, protected bool) error {
	if k == nil {
		return nil
	}
	sealed, err := k.sealer.Seal(keptAccess{Token: tok, Refresh: at.refresh, Client: at.client, Account: at.account, Scopes: at.scopes,
		Issued: at.issued, Expires: at.expires, Protected: protected})
	switch bs := k.boundedStore(); {
	case err != nil:
	case bs != nil:
		err = bs.KeepAccess(tokenDigest(at.refresh), tokenDigest(tok), []byte(sealed), accessPerGrant)
	default:
		err = k.store.PutAccess(tokenDigest(at.refresh), tokenDigest(tok), []byte(sealed))
	}
	return err
}

// deleteGrant forgets refresh token rt's grant and its access tokens; a failure is logged.
func (k *keeper) deleteGrant(rt string) {
	if k == nil {
		return
	}
	if err := k.store.DeleteGrant(tokenDigest(rt)); err != nil {
		k.log.Error("script sandbox: a revoked grant stays in the store until the next try", "err", err)
	}
}

// deleteAccess forgets access token tok of refresh token rt; a failure is logged.
func (k *keeper) deleteAccess(rt, tok string) {
	if k == nil {
		return
	}
	if err := k.store.DeleteAccess(tokenDigest(rt), tokenDigest(tok)); err != nil {
		k.log.Error("script sandbox: a revoked access token stays in the store until the next try", "err", err)
	}
}

// load puts the kept grants, and their access tokens still alive at now, in the tables. A
// sealed value that does not open (another secret key) or an expired token is removed from the
// store.
func (t *tables) load(now time.Time) {
	k := t.keeper
	if k == nil {
		return
	}
	var grants []keptGrant
	var tokens []keptAccess
	var badGrants []string
	var oldTokens [][2]string
	// The store is not called from f (a database may hold a transaction open): the tables,
	// whose bounds may evict into the store, are filled after.
	err := k.store.Load(func(digest string, sg []byte, sas map[string][]byte) {
		var g keptGrant
		if k.sealer.Open(string(sg), maxKept, &g) != nil || g.Token == "" || tokenDigest(g.Token) != digest {
			badGrants = append(badGrants, digest)
			return
		}
		grants = append(grants, g)
		for ad, sa := range sas {
			var a keptAccess
			if k.sealer.Open(string(sa), maxKept, &a) != nil || a.Refresh != g.Token || tokenDigest(a.Token) != ad || !now.Before(a.Expires) {
				oldTokens = append(oldTokens, [2]string{digest, ad})
				continue
			}
			tokens = append(tokens, a)
		}
	})
	if err != nil {
		k.log.Error("script sandbox: the tokens it issued before were not read; their clients must sign in again", "err", err)
		return
	}
	for _, g := range grants {
		t.refresh.Put(g.Token, &grant{client: g.Client, account: g.Account, scopes: g.Scopes, issued: g.Issued}, g.Owner, g.Protected)
	}
	for _, a := range tokens {
		if _, live := t.refresh.Peek(a.Refresh); live {
			t.access.Put(a.Token, &accessToken{grant: grant{client: a.Client, account: a.Account, scopes: a.Scopes, issued: a.Issued},
				expires: a.Expires, refresh: a.Refresh}, a.Refresh, a.Protected)
		}
	}
	for _, d := range badGrants {
		err = errors.Join(err, k.store.DeleteGrant(d))
	}
	for _, d := range oldTokens {
		err = errors.Join(err, k.store.DeleteAccess(d[0], d[1]))
	}
	if err != nil {
		k.log.Error("script sandbox: unreadable or expired tokens stay in the store", "err", err)
	}
	k.log.Info("script sandbox: tokens issued before the start kept", "grants", t.refresh.Len(), "access_tokens", t.access.Len(),
		"unreadable_grants", len(badGrants), "expired_or_unreadable_tokens", len(oldTokens))
}
