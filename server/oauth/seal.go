package oauth

import (
	"errors"
	"time"

	"loupe/server/internal/seal"
)

// A sign-in between /oauth/start and /oauth/callback is kept by the browser that started it,
// sealed (server/internal/seal: AES-256-GCM with a key derived from the secret key): the state cookie carries the whole pending
// sign-in, encrypted and authenticated, so the server keeps no table of sign-ins that anyone
// could fill, and no flood of /oauth/start can push a user's sign-in out. The browser cannot
// read the PKCE verifier in it, nor change anything; the state in the provider's redirect must
// match the one sealed in the cookie. Replicas sharing sign-ins share the key.

// maxSealed bounds the cookie, under the 4096 bytes browsers keep.
const maxSealed = 3800

// sealedPending is a pending sign-in as the cookie carries it.
type sealedPending struct {
	State    string   `json:"t"`
	User     string   `json:"u"`
	API      string   `json:"a"`
	Verifier string   `json:"v"`
	Scopes   []string `json:"s"`
	Redirect string   `json:"r"`
	Back     string   `json:"b"`
	Created  int64    `json:"c"`
}

// sealer seals and opens pending sign-ins (server/internal/seal).
type sealer struct{ s *seal.Sealer }

// newSealer makes a sealer with key (32 bytes), or a new random key when key is nil.
func newSealer(key []byte) *sealer {
	if key == nil {
		return &sealer{s: seal.New()}
	}
	return &sealer{s: seal.NewKey(key)}
}

// errSealed is every reason a sealed sign-in is not accepted: the caller only says it is not
// recognised.
var errSealed = errors.New("not a pending sign-in of this server")

// seal returns pd and its state as a cookie value; an error when it would not fit a cookie.
func (s *sealer) seal(state string, pd *pending) (string, error) {
	out, err := s.s.Seal(sealedPending{State: state, User: pd.user, API: pd.api, Verifier: pd.verifier, Scopes: pd.scopes,
		Redirect: pd.redirect, Back: pd.back, Created: pd.created.Unix()})
	if err != nil {
		return "", err
	}
	if len(out) > maxSealed {
		return "", errors.New("the sign-in does not fit in a cookie")
	}
	return out, nil
}

// open returns the pending sign-in value sealed and its state, when it is this server's, whole,
// and not older than stateTTL at now.
func (s *sealer) open(value string, now time.Time) (state string, pd *pending, err error) {
	var sp sealedPending
	if err := s.s.Open(value, maxSealed, &sp); err != nil || sp.State == "" {
		return "", nil, errSealed
	}
	created := time.Unix(sp.Created, 0)
	if now.Sub(created) > stateTTL || created.After(now.Add(time.Minute)) {
		return "", nil, errSealed
	}
	return sp.State, &pending{user: sp.User, api: sp.API, verifier: sp.Verifier, scopes: sp.Scopes,
		redirect: sp.Redirect, back: sp.Back, created: created}, nil
}
