package script

import (
	"crypto/tls"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"
)

// TestMetadata checks the RFC 8414 document: the issuer follows the request's scheme and Host,
// and every field the clients rely on is there.
func TestMetadata(t *testing.T) {
	h, _ := newOAuthTest(t, Options{})
	tests := []struct {
		name, host, proto string
		tls               bool
		wantIssuer        string
	}{
		{"plain", "loupe.test:8161", "", false, "http://loupe.test:8161/sandbox/script"},
		{"behind a TLS proxy", "loupe.example", "https", false, "https://loupe.example/sandbox/script"},
		{"TLS", "loupe.example", "", true, "https://loupe.example/sandbox/script"},
		{"the proxy's internal host", "sandbox.loupe.internal", "http", false, "http://sandbox.loupe.internal/sandbox/script"},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/.well-known/oauth-authorization-server", nil)
		r.Host = tt.host
		if tt.proto != "" {
			r.Header.Set("X-Forwarded-Proto", tt.proto)
		}
		r.TLS = nil
		if tt.tls {
			r.TLS = &tls.ConnectionState{}
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		var m map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil || w.Code != 200 {
			t.Fatalf("%s: got %d %s (%v); want 200 JSON", tt.name, w.Code, w.Body, err)
		}
		iss := tt.wantIssuer
		want := map[string]any{
			"issuer": iss, "authorization_endpoint": iss + "/oauth/authorize", "token_endpoint": iss + "/oauth/token",
			"revocation_endpoint": iss + "/oauth/revoke", "userinfo_endpoint": iss + "/oauth/userinfo",
			"response_types_supported":              []any{"code"},
			"grant_types_supported":                 []any{"authorization_code", "refresh_token"},
			"code_challenge_methods_supported":      []any{"S256"},
			"token_endpoint_auth_methods_supported": []any{"client_secret_basic", "client_secret_post"},
		}
		for k, v := range want {
			if !reflect.DeepEqual(m[k], v) {
				t.Errorf("%s: %s got %v; want %v", tt.name, k, m[k], v)
			}
		}
		scopes, _ := m["scopes_supported"].([]any)
		if len(scopes) != 18 || scopes[0] != "https://mail.google.com/" || scopes[17] != scopeUserinfoEmail {
			t.Errorf("%s: scopes_supported got %v; want the 18 scopes", tt.name, scopes)
		}
	}
	w := serve(h, httptest.NewRequest("POST", "/.well-known/oauth-authorization-server", nil))
	if w.Code != 405 || w.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: got %d Allow %q; want 405 GET, HEAD", w.Code, w.Header().Get("Allow"))
	}
}
