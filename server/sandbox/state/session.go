package state

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strings"

	"loupe/server/internal/clientip"
)

// Header carries the session ID from the Loupe proxy to the sandboxes over the in-memory
// listener. Only that listener trusts it (TrustHeader); the server strips it from every request
// that comes from outside (StripHeader), so no caller can pick another user's session.
const Header = "Loupe-Sandbox-Session"

// ClientHeader carries the caller's client address (clientip.Key) from the Loupe proxy to the
// sandboxes over the same listener, for the tables the sandboxes bound per client (the script
// sandbox's grants). Like Header, only that listener trusts it.
const ClientHeader = "Loupe-Sandbox-Client"

// CookieName is the cookie that names an anonymous browser's session (access mode none): a
// random value, HttpOnly, SameSite=Lax, set on first use (NewCookie).
const CookieName = "loupe_sandbox"

// Local is the session of a request that carries none: a sandbox's own tests, and the single
// browser of the static explorer's in-browser sandboxes.
const Local = "local"

// sessionKey is the context key of the session ID.
type sessionKey struct{}

// WithSession returns ctx carrying the session ID.
func WithSession(ctx context.Context, session string) context.Context {
	return context.WithValue(ctx, sessionKey{}, session)
}

// SessionOf returns the session ID ctx carries, or Local when it carries none.
func SessionOf(ctx context.Context) string {
	if s, ok := ctx.Value(sessionKey{}).(string); ok && s != "" {
		return s
	}
	return Local
}

// UserSession is the session of a signed-in Loupe user (access modes users and header).
func UserSession(name string) string { return "user:" + name }

// CredentialSession is the session of an official client that calls /sandbox/<slug> directly
// without a cookie: a hash of its credential, so the credential is never stored or logged.
func CredentialSession(credential string) string {
	sum := sha256.Sum256([]byte("loupe-sandbox-credential\x00" + credential))
	return "key:" + hex.EncodeToString(sum[:16])
}

// IsCredentialSession reports whether session is one CredentialSession names.
func IsCredentialSession(session string) bool { return strings.HasPrefix(session, "key:") }

// CookieSession is the session an anonymous browser's cookie value names; ok is false when the
// value is not one NewCookie makes (then the caller gets a new cookie).
func CookieSession(value string) (session string, ok bool) {
	b, err := base64.RawURLEncoding.DecodeString(value)
	if err != nil || len(b) != cookieBytes {
		return "", false
	}
	return "anon:" + value, true
}

// cookieBytes is the randomness of a session cookie.
const cookieBytes = 16

// NewCookie returns a new anonymous session and the cookie that names it. secure marks the
// cookie Secure (the server is reached over HTTPS).
func NewCookie(secure bool) (session string, c *http.Cookie) {
	b := make([]byte, cookieBytes)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	v := base64.RawURLEncoding.EncodeToString(b)
	session, _ = CookieSession(v)
	return session, &http.Cookie{
		Name: CookieName, Value: v, Path: "/", HttpOnly: true, Secure: secure,
		SameSite: http.SameSiteLaxMode, MaxAge: 400 * 24 * 3600,
	}
}

// TrustHeader serves next with the session the Header names, for the in-memory listener
// between the proxy and the sandboxes only: never mount it where outside requests arrive.
func TrustHeader(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header // Header and ClientHeader are canonical: read and deleted as map keys
		s, c := firstValue(h[Header]), firstValue(h[ClientHeader])
		if s != "" || c != "" {
			ctx := r.Context()
			if s != "" {
				ctx = WithSession(ctx, s)
				delete(h, Header)
			}
			if c != "" {
				ctx = clientip.With(ctx, c)
				delete(h, ClientHeader)
			}
			r = r.WithContext(ctx) // one copy of the request for both
		}
		next.ServeHTTP(w, r)
	})
}

func firstValue(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

// SetHeader puts the session and the client of r's context in r's Header and ClientHeader for
// the in-memory listener, or removes any such header r carries when its context names none. r
// is the proxy's outgoing request, which the caller owns.
//
// It runs for every proxied call to a sandbox: Header and ClientHeader are canonical, so the
// map is written directly, both values in one allocation.
func SetHeader(r *http.Request) {
	h := r.Header
	delete(h, Header)
	delete(h, ClientHeader)
	s, _ := r.Context().Value(sessionKey{}).(string)
	c := clientip.Of(r.Context())
	if s == "" && c == "" {
		return
	}
	v := []string{s, c}
	if s != "" {
		h[Header] = v[0:1:1]
	}
	if c != "" {
		h[ClientHeader] = v[1:2:2]
	}
}

// StripHeader removes the Header and ClientHeader from a request that comes from outside the
// server.
func StripHeader(r *http.Request) {
	delete(r.Header, Header) // canonical names
	delete(r.Header, ClientHeader)
}
