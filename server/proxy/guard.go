package proxy

import (
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
)

// A refusal is a call the proxy answers itself, with a JSON error.
type refusal struct {
	status  int
	message string // what happened
	check   string // what to check
}

// Prefix is the path under which the proxy is mounted.
const Prefix = "/proxy/"

// splitTarget reads the slug and the raw rest of the path from the request target as sent,
// refusing targets that are not a plain /proxy/<slug>/... path: absolute-form (with or without
// userinfo) and encoded or unclean prefixes.
func splitTarget(r *http.Request) (slug, rawRest string, _ *refusal) {
	target := r.RequestURI
	if target == "" { // a request built in-process rather than read from the wire
		target = r.URL.RequestURI()
	}
	if !strings.HasPrefix(target, "/") || r.URL.Host != "" || r.URL.User != nil {
		return "", "", bad("the request target must be a path starting with /proxy/, not an absolute URL")
	}
	raw, _, _ := strings.Cut(target, "?")
	if !strings.HasPrefix(raw, Prefix) {
		return "", "", bad("the path must start with /proxy/<api>/ as is, without encoded characters")
	}
	slug, rest, found := strings.Cut(raw[len(Prefix):], "/")
	if found {
		rest = raw[len(Prefix)+len(slug):] // "/" and the rest, without a copy
	}
	if slug == "" {
		return "", "", &refusal{http.StatusNotFound, "no API named in the path", "call /proxy/<api>/<path>"}
	}
	for _, b := range []byte(slug) {
		if !(b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '-' || b == '_') {
			return "", "", &refusal{http.StatusNotFound, "unknown API " + quote(slug), "API names are lower-case slugs such as chat"}
		}
	}
	return slug, rest, nil
}

// checkRest refuses a path that could climb out of the base URL or be read differently by the
// upstream: dot segments, empty segments, encoded slashes, dots, backslashes and percent
// signs, backslashes, semicolons, control characters, CR and LF, raw non-ASCII, look-alikes
// of dots and slashes, and userinfo-like first segments. An encoded slash or semicolon, or a
// raw semicolon, can be a documented value (a GitLab project path, a Cloud Storage object
// name, a matrix parameter): checkRest leaves those to checkValues, which accepts them only
// inside a value the matched operation's path template has a parameter for.
func checkRest(raw string) *refusal {
	ref, deferred := checkPath(raw)
	if ref == nil && deferred {
		return bad("the path has an encoded slash or a semicolon outside a documented parameter")
	}
	return ref
}

// checkPath is checkRest, reporting instead whether the path holds an encoded slash or
// semicolon, or a semicolon, that checkValues must place.
func checkPath(raw string) (ref *refusal, deferred bool) {
	nonASCII := false
	for i := 0; i < len(raw); i++ {
		b := raw[i]
		switch {
		case b == '%':
			if i+2 >= len(raw) || !isHex(raw[i+1]) || !isHex(raw[i+2]) {
				return bad("the path has a malformed percent-escape"), false
			}
			d := unhex(raw[i+1])<<4 | unhex(raw[i+2])
			switch {
			case d == '/' || d == ';':
				deferred = true
			case d >= 0x80:
				nonASCII = true
			case d == '\\' || d == '.' || d == '%' || d < 0x20 || d == 0x7f:
				return bad("the path has an encoded backslash, dot, percent sign or control character"), false
			}
			i += 2
		case b == ';':
			deferred = true
		case b == '\\':
			return bad("the path has a backslash"), false
		case b < 0x20 || b >= 0x7f:
			return bad("the path has a control or non-ASCII character; percent-encode it as UTF-8"), false
		}
	}
	if nonASCII {
		if ref := checkText(raw); ref != nil {
			return ref, false
		}
	}
	if raw == "" {
		return nil, deferred
	}
	for i, rest := 0, raw[1:]; ; i++ {
		s, after, more := strings.Cut(rest, "/")
		switch {
		case s == "" && more:
			return bad("the path has an empty segment (//)"), false
		case s != "" && (strings.Trim(s, ".") == "" || strings.HasPrefix(s, "..")):
			return bad("the path has a . or .. segment"), false
		case i == 0 && strings.Contains(s, "@"):
			return bad("the path's first segment looks like userinfo (@)"), false
		}
		if !more {
			return nil, deferred
		}
		rest = after
	}
}

// lookAlikes are characters an upstream may fold into a dot, a slash or a backslash
// (Unicode compatibility forms, "best fit" code pages).
const lookAlikes = "\uff0e\u2024\ufe52\u3002\uff61\u2215\u2044\uff0f\u29f8\u2216\uff3c\ufe68\u29f5\u00b7"

// checkText refuses percent-encoded bytes that are not UTF-8 (overlong forms included) or
// that encode a look-alike of a dot or a slash.
func checkText(raw string) *refusal {
	text, err := url.PathUnescape(raw)
	if err != nil || !utf8.ValidString(text) {
		return bad("the path has percent-encoded bytes that are not UTF-8")
	}
	if strings.ContainsAny(text, lookAlikes) {
		return bad("the path has a character that looks like a dot or a slash")
	}
	return nil
}

// checkQuery refuses CR, LF and NUL in the query, raw or encoded.
func checkQuery(raw string) *refusal {
	for i := 0; i < len(raw); i++ {
		b := raw[i]
		if b < 0x20 || b == 0x7f {
			return bad("the query has a control character")
		}
		if b == '%' && i+2 < len(raw) && isHex(raw[i+1]) && isHex(raw[i+2]) {
			if d := unhex(raw[i+1])<<4 | unhex(raw[i+2]); d == '\r' || d == '\n' || d == 0 {
				return bad("the query has an encoded CR, LF or NUL")
			}
		}
	}
	return nil
}

// overrideHeaders change the method or path some upstream frameworks act on; they could slip
// past the operation checks.
var overrideHeaders = []string{
	"X-Http-Method-Override", "X-Http-Method", "X-Method-Override",
	"X-Original-Url", "X-Rewrite-Url", "X-Override-Url", "X-Forwarded-Path", "X-Forwarded-Prefix",
}

var overrideSet = set(overrideHeaders)

// checkHeaders refuses a request with an override header, naming the first in overrideHeaders'
// order. A request with fewer headers than there are override names has each of its own looked
// up instead, which settles most calls from programs (curl, wrk) in fewer lookups.
func checkHeaders(h http.Header) *refusal {
	if len(h) < len(overrideHeaders) {
		found := false
		for name := range h {
			if overrideSet[name] {
				found = true
				break
			}
		}
		if !found {
			return nil
		}
	}
	for _, name := range overrideHeaders {
		if _, ok := h[name]; ok {
			return bad("the " + name + " header is not accepted: it would change the method or path upstream")
		}
	}
	return nil
}

func bad(msg string) *refusal {
	return &refusal{http.StatusBadRequest, msg, "send the path of a documented operation as is: /proxy/<api>/<path>"}
}

func isHex(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F'
}

func unhex(b byte) byte {
	switch {
	case b >= 'a':
		return b - 'a' + 10
	case b >= 'A':
		return b - 'A' + 10
	}
	return b - '0'
}

// IsProxyRequest reports whether r is for the proxy, as sent or once decoded. The server routes
// such requests to the proxy before its ServeMux, which would clean a path with dot segments
// and redirect instead of refusing it.
func IsProxyRequest(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, Prefix) || strings.HasPrefix(r.RequestURI, Prefix)
}
