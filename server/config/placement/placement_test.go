package placement

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"loupe/app/catalog"
)

// TestOfScheme: each kind of security scheme is sent the way the OpenAPI specification says;
// one the proxy cannot compute per call is refused with what to configure.
func TestOfScheme(t *testing.T) {
	tests := []struct {
		scheme                   catalog.SecurityScheme
		send, name, prefix, fail string
	}{
		{catalog.SecurityScheme{Type: "http", Scheme: "Bearer"}, Bearer, "", "", ""},
		{catalog.SecurityScheme{Type: "http", Scheme: "basic"}, Basic, "", "", ""},
		{catalog.SecurityScheme{Type: "apiKey", In: "header", ParamName: "Authorization", Prefix: "Token "}, Header, "Authorization", "Token ", ""},
		{catalog.SecurityScheme{Type: "apiKey", In: "query", ParamName: "key"}, Query, "key", "", ""},
		{catalog.SecurityScheme{Type: "apiKey", In: "cookie", ParamName: "sid"}, Cookie, "sid", "", ""},
		{catalog.SecurityScheme{Type: "oauth2"}, Bearer, "", "", ""},
		{catalog.SecurityScheme{Type: "openIdConnect"}, Bearer, "", "", ""},
		{catalog.SecurityScheme{Name: "sig", Type: "http", Scheme: "digest"}, "", "", "", `"sig" (http digest) is not one Loupe's proxy can send`},
	}
	for _, tt := range tests {
		send, name, prefix, err := OfScheme(&tt.scheme)
		if tt.fail != "" {
			if err == nil || !strings.Contains(err.Error(), tt.fail) {
				t.Errorf("%+v: got error %v; want one saying %q", tt.scheme, err, tt.fail)
			}
			continue
		}
		if err != nil || send != tt.send || name != tt.name || prefix != tt.prefix {
			t.Errorf("%+v: got %q %q %q %v; want %q %q %q", tt.scheme, send, name, prefix, err, tt.send, tt.name, tt.prefix)
		}
	}
}

// TestOf: the first scheme an operation requires says how the API's credential is sent; no
// requirement sends nothing, and a requirement naming no defined scheme is an error.
func TestOf(t *testing.T) {
	key := catalog.SecurityScheme{Name: "key", Type: "apiKey", In: "header", ParamName: "X-Api-Key"}
	bearer := catalog.SecurityScheme{Name: "token", Type: "http", Scheme: "bearer"}
	requires := func(schemes ...string) []catalog.SecurityRequirement {
		var req catalog.SecurityRequirement
		for _, s := range schemes {
			req.Schemes = append(req.Schemes, catalog.SchemeScopes{Scheme: s})
		}
		return []catalog.SecurityRequirement{req}
	}
	tests := []struct {
		name string
		api  catalog.API
		send string
		fail bool
	}{
		{"none required", catalog.API{Security: []catalog.SecurityScheme{key}, Operations: []catalog.Operation{{}}}, None, false},
		{"first operation's first scheme", catalog.API{Security: []catalog.SecurityScheme{key, bearer},
			Operations: []catalog.Operation{{}, {Security: requires("token", "key")}, {Security: requires("key")}}}, Bearer, false},
		{"undefined scheme", catalog.API{Operations: []catalog.Operation{{Security: requires("gone")}}}, "", true},
	}
	for _, tt := range tests {
		send, _, _, err := Of(&tt.api)
		if (err != nil) != tt.fail || send != tt.send {
			t.Errorf("%s: got %q, error %v; want %q, error %v", tt.name, send, err, tt.send, tt.fail)
		}
	}
}

// TestApply: each way of sending sets what Header.Set, the cookie and the query writers would,
// replacing a value the request already had; nothing to send is nil.
func TestApply(t *testing.T) {
	tests := []struct {
		send, name, prefix, secret string
		wantHeader                 http.Header
		wantQuery                  string
	}{
		{Bearer, "", "", "s3cr3t", http.Header{"Authorization": {"Bearer s3cr3t"}, "Cookie": {"a=1; sid=old"}}, "q=1&key=old"},
		{Header, "x-api-key", "", "s3cr3t", http.Header{"X-Api-Key": {"s3cr3t"}, "Authorization": {"Bearer browser"}, "Cookie": {"a=1; sid=old"}}, "q=1&key=old"},
		{Basic, "", "", "elastic:pw", http.Header{"Authorization": {"Basic ZWxhc3RpYzpwdw=="}, "Cookie": {"a=1; sid=old"}}, "q=1&key=old"},
		{Cookie, "sid", "", "s3cr3t", http.Header{"Authorization": {"Bearer browser"}, "Cookie": {"a=1; sid=s3cr3t"}}, "q=1&key=old"},
		{Query, "key", "", "s 3", http.Header{"Authorization": {"Bearer browser"}, "Cookie": {"a=1; sid=old"}}, "q=1&key=s+3"},
	}
	for _, tt := range tests {
		r, _ := http.NewRequest("GET", "http://api.example/v1?q=1&key=old", nil)
		r.Header = http.Header{"Authorization": {"Bearer browser"}, "Cookie": {"a=1; sid=old"}}
		Apply(tt.send, tt.name, tt.prefix, tt.secret)(r)
		if !reflect.DeepEqual(r.Header, tt.wantHeader) || r.URL.RawQuery != tt.wantQuery {
			t.Errorf("send %s: got %v ?%s; want %v ?%s", tt.send, r.Header, r.URL.RawQuery, tt.wantHeader, tt.wantQuery)
		}
	}
	for _, nothing := range [][2]string{{None, "s"}, {Bearer, ""}, {"digest", "s"}} {
		if f := Apply(nothing[0], "", "", nothing[1]); f != nil {
			t.Errorf("send %q with secret %q: got a function; want nil", nothing[0], nothing[1])
		}
	}
}
