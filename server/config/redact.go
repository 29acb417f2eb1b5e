package config

import (
	"net/url"
	"strings"
)

// redactURL returns u for an error message without what may be a secret in it: the
// user:password@, each query value and the fragment are replaced by REDACTED. A URL that does
// not parse keeps only what comes before its first '?' or '#', and loses its userinfo.
func redactURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		cut := strings.IndexAny(u, "?#")
		if cut < 0 {
			return redactUserinfo(u)
		}
		return redactUserinfo(u[:cut]) + u[cut:cut+1] + "REDACTED"
	}
	if p.User != nil {
		p.User = url.User("REDACTED")
	}
	if p.RawQuery != "" {
		parts := strings.Split(p.RawQuery, "&")
		for i, kv := range parts {
			if k, _, ok := strings.Cut(kv, "="); ok {
				parts[i] = k + "=REDACTED"
			} else {
				parts[i] = "REDACTED"
			}
		}
		p.RawQuery = strings.Join(parts, "&")
	}
	if p.Fragment != "" {
		p.Fragment, p.RawFragment = "REDACTED", ""
	}
	return p.String()
}

// redactUserinfo drops what stands between "//" and the last "@" (a password may hold a '/').
func redactUserinfo(u string) string {
	_, rest, ok := strings.Cut(u, "//")
	if !ok {
		return u
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		return u[:len(u)-len(rest)] + "REDACTED" + rest[at:]
	}
	return u
}
