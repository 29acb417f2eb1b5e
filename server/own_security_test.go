package server

import (
	"net/http"
	"strings"
	"testing"
)

// TestOwnAPISecurityPerOperation: each operation of an API of your own is sent the credentials
// of the first of its security requirements that can be met, all of them at once; security:
// [] sends nothing, an optional requirement sends nothing when the other cannot be met, and an
// operation that needs a scheme the proxy cannot compute (HMAC) is answered with what to set.
func TestOwnAPISecurityPerOperation(t *testing.T) {
	up, got := stubUpstream(t)
	ts := ownServer(t, `
apis:
  sec:
    openapi: testdata/security-and-or.yaml
    base_url: `+up.URL+`
    credentials:
      key: {value: k-1}
      secret: {value: s-2}
      q: {value: q 3}
      basic: {value: 'ann:pw'}
      c: {value: c4}
`)
	tests := []struct {
		method, path string
		header       http.Header
		want         string // what the upstream got of the credentials
	}{
		{"GET", "/default", nil, "X-Key=k-1"},
		{"GET", "/and", nil, "X-Key=k-1 X-Secret=s-2"},
		{"GET", "/or?z=1&a=2", nil, "query=z=1&a=2&api_key=q+3"},
		{"GET", "/none", nil, ""},
		{"POST", "/login", nil, "Authorization=Basic YW5uOnB3"},
		{"GET", "/cookie", http.Header{"X-Loupe-Cookie": {"theme=dark"}}, "Cookie=theme=dark; sid=c4"},
		{"GET", "/optional", nil, ""},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, ts.URL+"/proxy/sec"+tt.path, nil)
		for k, v := range tt.header {
			req.Header[k] = v
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s %s: got %d; want 200", tt.method, tt.path, resp.StatusCode)
			continue
		}
		s := <-got
		var creds []string
		for _, h := range []string{"X-Key", "X-Secret", "Authorization", "Cookie"} {
			if v := s.header.Get(h); v != "" {
				creds = append(creds, h+"="+v)
			}
		}
		if s.query != "" {
			creds = append(creds, "query="+s.query)
		}
		if g := strings.Join(creds, " "); g != tt.want {
			t.Errorf("%s %s: upstream got %q; want %q", tt.method, tt.path, g, tt.want)
		}
	}
	resp := do(t, "GET", ts.URL+"/proxy/sec/signed", "")
	for _, want := range []string{"GET /signed needs the credentials of hmac", "apis.sec.credentials.hmac", "hmac-sha256"} {
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.body, want) {
			t.Errorf("/signed: got %d %s; want 401 saying %q", resp.StatusCode, resp.body, want)
		}
	}
	select {
	case s := <-got:
		t.Errorf("a call that cannot be authorized reached the upstream: %s %s", s.method, s.path)
	default:
	}
}

// TestOwnAPIUnknownScheme: a document whose only scheme is one the proxy cannot send (HTTP
// digest) loads; its calls say what to configure.
func TestOwnAPIUnknownScheme(t *testing.T) {
	up, _ := stubUpstream(t)
	doc := schemeDocument(t, t.TempDir(), "{type: http, scheme: digest}")
	ts := ownServer(t, "apis:\n  c:\n    openapi: "+doc+"\n    base_url: "+up.URL+"\n    credential: {value: k}\n")
	resp := do(t, "GET", ts.URL+"/proxy/c/a", "")
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.body, "apis.c.credentials.c with send (header, with name and prefix)") {
		t.Errorf("got %d %s; want 401 saying what to configure", resp.StatusCode, resp.body)
	}
}
