package access

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
)

// deviceCookie marks a browser where a user logged in with the right password. A login for
// that user from that browser is throttled on the browser's own failures only, never on the
// account's or the address's: a flood of wrong passwords against the account from elsewhere
// slows everyone but the user's own browsers (OWASP's "device cookies"). It is HttpOnly,
// sent to /login only, and signed with a key derived from the server's secret key.
const deviceCookie = "loupe_device"

// deviceTTL is how long a browser stays known: 400 days, the longest browsers keep a cookie.
const deviceTTL = 400 * 24 * 3600

// devices signs and reads device cookies.
type devices struct{ key []byte }

// newDevices signs with key, or with a key made now when it is nil.
func newDevices(key []byte) *devices {
	if key == nil {
		key = make([]byte, 32)
		_, _ = rand.Read(key) // crypto/rand.Read never fails
	}
	return &devices{key: key}
}

// sign is the MAC of payload.
func (d *devices) sign(payload string) string {
	m := hmac.New(sha256.New, d.key)
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// cookie returns a new device cookie for user.
func (d *devices) cookie(user string, secure bool) *http.Cookie {
	payload := base64.RawURLEncoding.EncodeToString([]byte(user)) + "." + rand.Text()
	return &http.Cookie{Name: deviceCookie, Value: payload + "." + d.sign(payload), Path: loginPath,
		HttpOnly: true, Secure: secure, SameSite: http.SameSiteStrictMode, MaxAge: deviceTTL}
}

// of returns the device ID of r's device cookie when it is valid and names user, else "".
func (d *devices) of(r *http.Request, user string) string {
	c, err := r.Cookie(deviceCookie)
	if err != nil || len(c.Value) > 1024 {
		return ""
	}
	payload, mac, ok := cutLast(c.Value, ".")
	if !ok || !hmac.Equal([]byte(mac), []byte(d.sign(payload))) {
		return ""
	}
	enc, id, ok := strings.Cut(payload, ".")
	name, err := base64.RawURLEncoding.DecodeString(enc)
	if !ok || err != nil || string(name) != user || id == "" {
		return ""
	}
	return id
}

// cutLast cuts s around the last sep.
func cutLast(s, sep string) (before, after string, ok bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}
