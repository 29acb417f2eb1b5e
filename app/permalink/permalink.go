// Package permalink keeps an operation's form state in the URL fragment, so that a reload
// restores the form and a link shares it.
//
// The fragment is versioned, compact and readable: "v1", then &-separated name=value pairs.
// A query parameter appears under its own name (limit=10); a repeatable one repeats
// (types=Person&types=Place); other locations are prefixed (path:scriptId=abc,
// header:X-Trace=1). The body appears as json=<compact JSON> when it was indented the way the
// form indents it (restored indented), as body=<text> otherwise, and not at all while it is the
// documented example. Spaces are written as +, and only what must be is percent-encoded.
//
// A link never holds a credential: parameters named like one (see IsCredential) are dropped when
// encoding and ignored when decoding.
package permalink

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"loupe/app/catalog"
	"loupe/app/request"
)

// Version is the current fragment version, its first token.
const Version = "v1"

// ErrMalformed is returned (wrapped) when a fragment cannot be read at all.
var ErrMalformed = errors.New("malformed link")

// ErrOutdated is returned (wrapped) when a fragment comes from another version of Loupe or
// names parameters the operation no longer has.
var ErrOutdated = errors.New("outdated link")

// Encode returns the fragment (without "#") for st on op.
func Encode(op *catalog.Operation, st request.State) string {
	var b strings.Builder
	b.WriteString(Version)
	for i := range op.Parameters {
		p := &op.Parameters[i]
		if IsCredential(p.Name) {
			continue
		}
		name := fragmentName(p)
		for _, v := range st.Params[request.Key(p)] {
			if v == "" {
				continue
			}
			b.WriteByte('&')
			b.WriteString(escape(name))
			b.WriteByte('=')
			b.WriteString(escape(v))
		}
	}
	if op.Body != nil {
		initial := request.InitialBody(op.Body)
		if strings.TrimSpace(st.Body) != strings.TrimSpace(initial) {
			if compact, ok := indentedJSON(st.Body); ok {
				b.WriteString("&json=")
				b.WriteString(escape(compact))
			} else {
				b.WriteString("&body=")
				b.WriteString(escape(st.Body))
			}
		}
	}
	return b.String()
}

// Decode reads a fragment (with or without "#") for op. An empty fragment returns ok false and
// no error: the form keeps its initial state. A fragment that cannot be used returns an error
// wrapping ErrMalformed or ErrOutdated, whose text the page shows as a notice.
func Decode(op *catalog.Operation, fragment string) (st request.State, ok bool, err error) {
	fragment = strings.TrimPrefix(fragment, "#")
	if fragment == "" {
		return request.State{}, false, nil
	}
	parts := strings.Split(fragment, "&")
	switch v := parts[0]; {
	case v == Version:
	case len(v) > 1 && v[0] == 'v' && strings.Trim(v[1:], "0123456789") == "":
		return request.State{}, false, fmt.Errorf("%w: it was made by another version of Loupe (%s, this one reads %s)", ErrOutdated, v, Version)
	default:
		return request.State{}, false, fmt.Errorf("%w: it does not start with %s", ErrMalformed, Version)
	}
	byName := map[string]*catalog.Parameter{}
	for i := range op.Parameters {
		p := &op.Parameters[i]
		byName[fragmentName(p)] = p
	}
	st = request.State{Params: map[string][]string{}}
	if op.Body != nil {
		st.Body = request.InitialBody(op.Body)
	}
	var unknown []string
	for _, part := range parts[1:] {
		if part == "" {
			continue
		}
		rawName, rawValue, found := strings.Cut(part, "=")
		name, err1 := unescape(rawName)
		value, err2 := unescape(rawValue)
		if !found || err1 != nil || err2 != nil || name == "" {
			return request.State{}, false, fmt.Errorf("%w: cannot read %q", ErrMalformed, truncate(part))
		}
		switch name {
		case "json":
			if op.Body == nil {
				unknown = append(unknown, "the request body")
				continue
			}
			var out bytes.Buffer
			if json.Indent(&out, []byte(value), "", "  ") != nil {
				return request.State{}, false, fmt.Errorf("%w: its request body is not JSON", ErrMalformed)
			}
			st.Body = out.String()
			continue
		case "body":
			if op.Body == nil {
				unknown = append(unknown, "the request body")
				continue
			}
			st.Body = value
			continue
		}
		if IsCredential(name[strings.Index(name, ":")+1:]) {
			continue
		}
		p := byName[name]
		if p == nil {
			unknown = append(unknown, name)
			continue
		}
		key := request.Key(p)
		st.Params[key] = append(st.Params[key], value)
	}
	if len(unknown) > 0 {
		return request.State{}, false, fmt.Errorf("%w: this operation has no %s", ErrOutdated, strings.Join(unknown, ", "))
	}
	return st, true, nil
}

// fragmentName is a parameter's name in the fragment: bare for a query parameter, in:name
// otherwise and for query names that would be ambiguous.
func fragmentName(p *catalog.Parameter) string {
	if p.In == "query" && p.Name != "json" && p.Name != "body" && !strings.Contains(p.Name, ":") {
		return p.Name
	}
	return p.In + ":" + p.Name
}

// indentedJSON returns the compact form of text when text is JSON indented exactly as the form
// indents it, so decoding restores the same text.
func indentedJSON(text string) (string, bool) {
	var compact bytes.Buffer
	if json.Compact(&compact, []byte(text)) != nil {
		return "", false
	}
	var indented bytes.Buffer
	if json.Indent(&indented, compact.Bytes(), "", "  ") != nil || indented.String() != text {
		return "", false
	}
	return compact.String(), true
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// IsCredential reports whether a parameter or header name looks like it carries a credential:
// authorization, cookie, key, api key, token, access token, password, secret and the like.
// Paging tokens (pageToken, nextPageToken, syncToken) are not credentials.
func IsCredential(name string) bool {
	n := strings.ToLower(name)
	n = strings.NewReplacer("-", "", "_", "", ".", "").Replace(n)
	switch n {
	case "key", "token", "auth", "authorization", "proxyauthorization", "cookie", "setcookie",
		"accesstoken", "idtoken", "refreshtoken", "bearer", "apikey", "xapikey", "password",
		"passwd", "secret", "clientsecret", "session", "sessionid", "oauthtoken", "xauthtoken":
		return true
	}
	for _, suffix := range []string{"apikey", "password", "secret", "accesstoken", "authtoken", "authorization"} {
		if strings.HasSuffix(n, suffix) {
			return true
		}
	}
	return false
}

// Credentials returns the names in a fragment that look like credentials, which Decode ignores,
// so that the page can say it ignored them.
func Credentials(fragment string) []string {
	var names []string
	for _, part := range strings.Split(strings.TrimPrefix(fragment, "#"), "&") {
		rawName, _, _ := strings.Cut(part, "=")
		name, err := unescape(rawName)
		if err != nil {
			continue
		}
		if IsCredential(name[strings.Index(name, ":")+1:]) {
			names = append(names, name)
		}
	}
	return names
}
