// Package seal keeps server state in the client instead of in a table anyone could fill: a
// value is encoded as JSON, encrypted and authenticated with AES-256-GCM under a key derived
// from the server's secret key (or made at start), and handed to the client (a cookie, a form
// field); only what this server sealed opens, unread and unchanged. Replicas that must open
// each other's values share the secret key.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
)

// Sealer seals and opens values. It is safe for concurrent use.
type Sealer struct{ aead cipher.AEAD }

// New returns a Sealer with a new random key.
func New() *Sealer {
	key := make([]byte, 32)
	_, _ = rand.Read(key) // crypto/rand.Read never fails
	return NewKey(key)
}

// NewKey returns a Sealer with key, 32 bytes (derived from the server's secret key,
// server/internal/secretkey): Sealers with the same key open each other's values. It panics on
// another length, a programming error.
func NewKey(key []byte) *Sealer {
	if len(key) != 32 {
		panic("seal: the key must be 32 bytes")
	}
	block, _ := aes.NewCipher(key)
	aead, _ := cipher.NewGCM(block) // a 32-byte key and the default nonce size cannot fail
	return &Sealer{aead: aead}
}

// ErrNotSealed is every reason a value does not open: it was not sealed by this Sealer, or
// was changed, or is not the JSON of the type asked for. A caller says no more than that.
var ErrNotSealed = errors.New("not a value sealed by this server")

// Seal returns v sealed, URL-safe base64 without padding.
func (s *Sealer) Seal(v any) (string, error) {
	plain, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, s.aead.NonceSize())
	_, _ = rand.Read(nonce)
	return base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, plain, nil)), nil
}

// Open decodes sealed into v (a pointer), or returns ErrNotSealed. sealed longer than max bytes
// is refused before any work.
func (s *Sealer) Open(sealed string, max int, v any) error {
	if len(sealed) > max {
		return ErrNotSealed
	}
	raw, err := base64.RawURLEncoding.DecodeString(sealed)
	if err != nil || len(raw) < s.aead.NonceSize() {
		return ErrNotSealed
	}
	plain, err := s.aead.Open(nil, raw[:s.aead.NonceSize()], raw[s.aead.NonceSize():], nil)
	if err != nil || json.Unmarshal(plain, v) != nil {
		return ErrNotSealed
	}
	return nil
}
