package server

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"

	"loupe/app/catalog"
	"loupe/app/request"
	"loupe/server/config/placement"
)

// nextID numbers the corpus's requests.
var nextID atomic.Int64

// auth is what the proxy must do about an operation's credentials, as its security says.
type auth struct {
	applied    []*catalog.SecurityScheme // the schemes of the first requirement met
	refused    bool                      // no requirement can be met
	unsendable string                    // a scheme that stops it, for the refusal's words
}

// expectedAuth works out, independently of server/security.go, which credentials the proxy
// sends for an operation: every scheme Loupe can send has one in the corpus (secretOf).
func expectedAuth(api *catalog.API, op *catalog.Operation) auth {
	if len(op.Security) == 0 {
		return auth{}
	}
	var a auth
	for _, req := range op.Security {
		var schemes []*catalog.SecurityScheme
		met := true
		for _, sc := range req.Schemes {
			var found *catalog.SecurityScheme
			for i := range api.Security {
				if api.Security[i].Name == sc.Scheme {
					found = &api.Security[i]
				}
			}
			if found == nil {
				met = false
				continue
			}
			if _, _, _, err := placement.OfScheme(found); err != nil {
				met = false
				if a.unsendable == "" {
					a.unsendable = found.Name
				}
				continue
			}
			schemes = append(schemes, found)
		}
		if met {
			return auth{applied: schemes}
		}
	}
	a.refused = true
	return a
}

// droppedByDesign are the browser's headers the proxy never sends upstream: credentials (the
// server's replace them) and what would tell the upstream about the browser's page.
var droppedByDesign = map[string]bool{
	"Authorization": true, "Proxy-Authorization": true, "Cookie": true, "X-Api-Key": true, "X-Goog-Api-Key": true,
	"Origin": true, "Referer": true, "X-Real-Ip": true, "Forwarded": true, "X-Forwarded-For": true,
	"X-Forwarded-Host": true, "X-Forwarded-Proto": true, "Accept-Encoding": true, "Host": true,
	"Content-Length": true, "Connection": true, "Transfer-Encoding": true, "Te": true, "Upgrade": true, "Trailer": true,
}

// compare says what differs between the request the form built and what the upstream got,
// with the credentials expected added; "" when nothing does.
func compare(api *catalog.API, req *request.Request, got recorded, a auth) string {
	if got.method != req.Method {
		return fmt.Sprintf("method %s; built %s", got.method, req.Method)
	}
	_, query, _ := strings.Cut(req.URL, "?")
	drop := map[string]bool{"key": true, "access_token": true, "oauth_token": true}
	droppedHeader := map[string]bool{}
	want := http.Header{}
	var cookie []string
	for _, h := range req.Headers {
		if strings.EqualFold(h.Name, "Cookie") {
			cookie = append(cookie, h.Value)
		}
	}
	if len(cookie) > 0 {
		want.Set("Cookie", strings.Join(cookie, "; "))
	}
	// The API's apiKey headers and parameters carry a credential: a form's value for one is
	// dropped by the proxy, as the browser's Authorization is.
	for i := range api.Security {
		if s := &api.Security[i]; s.Type == "apiKey" && s.In == "query" {
			drop[s.ParamName] = true
		} else if s.Type == "apiKey" && s.In == "header" {
			droppedHeader[http.CanonicalHeaderKey(s.ParamName)] = true
		}
	}
	query = dropQuery(query, drop)
	for _, s := range a.applied {
		secret := secretOf(s)
		switch {
		case s.Type == "apiKey" && s.In == "header":
			want.Set(s.ParamName, s.Prefix+secret)
		case s.Type == "apiKey" && s.In == "query":
			query = placement.SetQuery(query, s.ParamName, secret)
		case s.Type == "apiKey" && s.In == "cookie":
			placement.SetCookie(want, s.ParamName, secret)
		case s.Type == "http" && strings.EqualFold(s.Scheme, "basic"):
			want.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(secret)))
		default:
			want.Set("Authorization", "Bearer "+secret)
		}
	}
	uri := "/" + api.Slug + req.Path
	if query != "" {
		uri += "?" + query
	}
	if got.uri != uri {
		return fmt.Sprintf("the upstream got %s; built %s", got.uri, uri)
	}
	if !bytes.Equal(got.body, req.Body) {
		return fmt.Sprintf("the upstream got a body of %d bytes; built %d:\n%q\n%q", len(got.body), len(req.Body), clip(got.body), clip(req.Body))
	}
	for _, h := range req.Headers {
		name := http.CanonicalHeaderKey(h.Name)
		if droppedByDesign[name] || droppedHeader[name] {
			continue
		}
		if v := got.header.Get(name); v != h.Value {
			return fmt.Sprintf("header %s: the upstream got %q; built %q", name, v, h.Value)
		}
	}
	for name := range want {
		if v, w := got.header.Get(name), want.Get(name); v != w {
			return fmt.Sprintf("header %s: the upstream got %q; want %q", name, v, w)
		}
	}
	if len(a.applied) == 0 && got.header.Get("Authorization") != "" {
		return "an operation whose security sends nothing got Authorization " + got.header.Get("Authorization")
	}
	return ""
}

// dropQuery removes the pairs whose name is in drop, keeping the others as written.
func dropQuery(raw string, drop map[string]bool) string {
	var kept []string
	for _, pair := range strings.Split(raw, "&") {
		if pair == "" {
			continue
		}
		name, _, _ := strings.Cut(pair, "=")
		if un, err := url.QueryUnescape(name); err == nil && drop[un] {
			continue
		}
		kept = append(kept, pair)
	}
	return strings.Join(kept, "&")
}

func clip(b []byte) []byte {
	if len(b) > 300 {
		return b[:300]
	}
	return b
}
