package snippet

import (
	"encoding/json"
	"strings"

	"loupe/app/request"
)

// Target says where a snippet sends its request and how it carries the credential.
type Target struct {
	// Proxy is Loupe's origin ("http://localhost:8080") when the snippet goes through Loupe's
	// proxy, which adds the credential: the snippet then names none. "" means the real API,
	// as Direct says, with each credential read from an environment variable.
	Proxy string
	// Direct is the real API the snippet goes to when Proxy is "".
	Direct Direct
	// Held are the credentials the API's requests carry (Held): named only, by the proxy
	// target's comment, or read from KeyVar's variables by the real-API target.
	Held []Credential
}

// URL returns the address the snippet sends req to: the proxy's, or the real API's, whose base
// URL replaces the request's /proxy/<slug> prefix. Credentials in the query are not in it.
func (t Target) URL(req *request.Request) string {
	if t.Proxy != "" {
		return t.Proxy + req.URL
	}
	return strings.TrimRight(t.Direct.BaseURL, "/") + strings.TrimPrefix(req.URL, t.Direct.Prefix)
}

// base returns the target's root, the URL of the request path "/": where a client library is
// pointed.
func (t Target) base() string {
	if t.Proxy != "" {
		return t.Proxy + t.Direct.Prefix
	}
	return strings.TrimRight(t.Direct.BaseURL, "/")
}

// envCred is a credential a real-API snippet adds itself, its value read from Var.
type envCred struct {
	Credential
	// Var is the environment variable holding the key.
	Var string
	// Before is the value's text before the key, such as "Bearer ".
	Before string
}

// creds returns the credentials the snippet adds itself: none through the proxy.
func (t Target) creds() []envCred {
	if t.Proxy != "" {
		return nil
	}
	var out []envCred
	for _, c := range t.Held {
		before, _, _ := strings.Cut(c.Value, HeldValue)
		out = append(out, envCred{Credential: c, Var: KeyVar(t.Direct.Slug, c), Before: before})
	}
	return out
}

// notes are the comment lines a snippet starts with: where it goes and which variables to set.
func (t Target) notes() []string {
	if t.Proxy != "" {
		if len(t.Held) == 0 {
			return []string{"Through the Loupe proxy."}
		}
		names := make([]string, len(t.Held))
		for i, c := range t.Held {
			names[i] = c.Name
		}
		return []string{"Through the Loupe proxy, which adds the credential (" + strings.Join(names, ", ") + "): run it as is."}
	}
	var vars []string
	for _, c := range t.creds() {
		vars = append(vars, c.Var)
	}
	note := "Straight to the real API"
	switch {
	case t.Direct.InBrowser:
		note = "On this static site the built-in sandbox answers the page's request inside your browser. This is the same request to the real API"
	case t.Direct.Proxied:
		note = "The page sends this request through Loupe's proxy. This is the same request straight to the real API"
	}
	if len(vars) > 0 {
		note += "; set " + strings.Join(vars, " and ") + " to your credential first"
	}
	return []string{note + "."}
}

// comments writes lines as comments starting with mark ("#", "//").
func comments(b *strings.Builder, mark string, lines []string) {
	for _, l := range lines {
		// A name from a document cannot end the comment and start a command.
		l = strings.Map(func(r rune) rune {
			if r < ' ' || r == 0x7f || r == '\u2028' || r == '\u2029' {
				return ' '
			}
			return r
		}, l)
		b.WriteString(mark + " " + l + "\n")
	}
}

// str returns s as a double-quoted string literal valid in JavaScript, Python and JSON.
func str(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s) //nolint:errcheck // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// queryCreds returns the credentials that go in the query, and the others.
func queryCreds(cs []envCred) (query, header []envCred) {
	for _, c := range cs {
		if c.In == "query" {
			query = append(query, c)
		} else {
			header = append(header, c)
		}
	}
	return query, header
}

// hasQuery reports whether a URL has a query.
func hasQuery(u string) bool { return strings.Contains(u, "?") }

// isJSON reports whether body is JSON text.
func isJSON(body []byte) bool { return body != nil && json.Valid(body) }

// indent prefixes every line of s but the first with pad.
func indent(s, pad string) string { return strings.ReplaceAll(s, "\n", "\n"+pad) }
