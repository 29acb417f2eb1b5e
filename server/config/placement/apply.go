package placement

import (
	"encoding/base64"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
)

// Apply returns how to add secret to an outgoing request as send (Bearer, Header, Basic,
// Query or Cookie) with name and prefix say, or nil when nothing is sent (an empty secret,
// None, or a send it does not know). A header's name and value are made once, here: each call
// sets them as Header.Set would, without building the value or canonicalizing the name again.
func Apply(send, name, prefix, secret string) func(*http.Request) {
	if secret == "" {
		return nil
	}
	setHeader := func(name, v string) func(*http.Request) {
		key := textproto.CanonicalMIMEHeaderKey(name)
		return func(r *http.Request) { r.Header[key] = []string{v} }
	}
	switch send {
	case Bearer:
		return setHeader("Authorization", "Bearer "+secret)
	case Header:
		return setHeader(name, prefix+secret)
	case Basic:
		return setHeader("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(secret)))
	case Cookie:
		// The browser's own Cookie header never goes upstream (the proxy drops it); the
		// operation's cookie parameters may be there, and a cookie of the same name is replaced.
		return func(r *http.Request) { SetCookie(r.Header, name, secret) }
	case Query:
		return func(r *http.Request) { r.URL.RawQuery = SetQuery(r.URL.RawQuery, name, secret) }
	}
	return nil
}

// SetQuery returns a raw query with the parameter name set to value: every name=... pair
// already there removed and name=value appended, the other pairs kept as they were written,
// in their order and escaping.
func SetQuery(raw, name, value string) string {
	var kept []string
	for _, pair := range strings.Split(raw, "&") {
		if pair == "" {
			continue
		}
		k, _, _ := strings.Cut(pair, "=")
		if un, err := url.QueryUnescape(k); err == nil && un == name {
			continue
		}
		kept = append(kept, pair)
	}
	return strings.Join(append(kept, url.QueryEscape(name)+"="+url.QueryEscape(value)), "&")
}

// SetCookie sets the cookie name to value in a request's Cookie header, keeping the others.
func SetCookie(h http.Header, name, value string) {
	var kept []string
	for _, line := range h.Values("Cookie") {
		for _, c := range strings.Split(line, ";") {
			if c = strings.TrimSpace(c); c == "" {
				continue
			}
			if k, _, _ := strings.Cut(c, "="); k == name {
				continue
			}
			kept = append(kept, c)
		}
	}
	h.Set("Cookie", strings.Join(append(kept, name+"="+value), "; "))
}
