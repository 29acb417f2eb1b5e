package script

import (
	"time"
)

// SharedCodeStore keeps the authorization codes too, for replicas that share a
// SharedTokenStore: the client's callback, which redeems a code, may reach another replica
// than the consent page that issued it. A code is kept sealed under its digest until it
// expires, and is redeemed once across every replica: UseCode marks it used in one step, so a
// second redemption anywhere is seen as one (and revokes what the first obtained, RFC 6749
// §4.1.2). server/internal/pgoauth implements it.
type SharedCodeStore interface {
	// PutCode keeps a sealed code under its digest until expires.
	PutCode(code string, sealed []byte, expires time.Time) error
	// UseCode marks the code used and returns its sealed value and whether it was used
	// before; nil (and no error) when there is none or it expired.
	UseCode(code string) (sealed []byte, usedBefore bool, err error)
	// SetCode replaces a code's sealed value: once redeemed, with the refresh token it gave.
	SetCode(code string, sealed []byte) error
	// DeleteCode forgets a code; none is no error.
	DeleteCode(code string) error
}

// keptCode is an authorization code as it is sealed for the store.
type keptCode struct {
	Code      string    `json:"k"`
	Client    string    `json:"c"`
	Redirect  string    `json:"r"`
	State     string    `json:"st"`
	Challenge string    `json:"ch"`
	Scopes    []string  `json:"s"`
	Expires   time.Time `json:"e"`
	Refresh   string    `json:"rt,omitempty"`
}

// codeStore is the keeper's store when it keeps codes too; nil otherwise.
func (k *keeper) codeStore() SharedCodeStore {
	if k == nil || k.shared == nil {
		return nil
	}
	cs, _ := k.shared.(SharedCodeStore)
	return cs
}

// sealCode seals ac as code's value.
func (k *keeper) sealCode(code string, ac *authCode) ([]byte, error) {
	s, err := k.sealer.Seal(keptCode{Code: code, Client: ac.req.client.ID, Redirect: ac.req.redirect, State: ac.req.state,
		Challenge: ac.req.challenge, Scopes: ac.req.scopes, Expires: ac.expires, Refresh: ac.refresh})
	return []byte(s), err
}

// keepCode writes a new code, owned by by, through to a SharedCodeStore; without one it does
// nothing.
func (as *authServer) keepCode(code string, ac *authCode, by owner) error {
	cs := as.keeper.codeStore()
	if cs == nil {
		return nil
	}
	sealed, err := as.keeper.sealCode(code, ac)
	switch bs := as.keeper.boundedStore(); {
	case err != nil:
	case bs != nil:
		err = bs.KeepCode(tokenDigest(code), sealed, ac.expires, by.ownership(perOwner))
	default:
		err = cs.PutCode(tokenDigest(code), sealed, ac.expires)
	}
	return err
}

// redeemable returns code's issued request for the token endpoint, or false. With a
// SharedCodeStore the store answers (the code may come from another replica) and marks it used
// at once, so the code is used whatever follows; ac.used says it was used before. Without one,
// the tables answer. A store that cannot answer is errNotKept's case: ok false, kept false.
// The caller holds as.mu.
func (as *authServer) redeemable(code string) (ac *authCode, ok, kept bool) {
	cs := as.keeper.codeStore()
	if cs == nil {
		ac, ok = as.codes.Peek(code)
		return ac, ok, true
	}
	sealed, usedBefore, err := cs.UseCode(tokenDigest(code))
	if err != nil {
		as.keeper.log.Error("script sandbox: an authorization code could not be read from the store", "err", err)
		return nil, false, false
	}
	if sealed == nil {
		return nil, false, true
	}
	var k keptCode
	client, known := OAuthClient{}, false
	if as.keeper.sealer.Open(string(sealed), maxKept, &k) == nil && k.Code == code {
		client, known = as.clients[k.Client]
	}
	if !known {
		return nil, false, true
	}
	return &authCode{req: authRequest{client: client, redirect: k.Redirect, state: k.State, challenge: k.Challenge, scopes: k.Scopes},
		expires: k.Expires, used: usedBefore, refresh: k.Refresh}, true, true
}

// forgetCode drops a code that must not be redeemed again.
func (as *authServer) forgetCode(code string) {
	as.codes.Delete(code)
	if cs := as.keeper.codeStore(); cs != nil {
		if err := cs.DeleteCode(tokenDigest(code)); err != nil {
			as.keeper.log.Error("script sandbox: a used-up authorization code stays in the store until it expires", "err", err)
		}
	}
}

// codeGave records the refresh token a code's redemption gave, so that a second redemption
// on any replica revokes it.
func (as *authServer) codeGave(code string, ac *authCode) {
	cs := as.keeper.codeStore()
	if cs == nil {
		return
	}
	sealed, err := as.keeper.sealCode(code, ac)
	if err == nil {
		err = cs.SetCode(tokenDigest(code), sealed)
	}
	if err != nil {
		as.keeper.log.Error("script sandbox: a redeemed code's grant was not recorded; a second use will not revoke it", "err", err)
	}
}
