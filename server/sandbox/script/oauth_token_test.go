package script

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// basicAuth is the default client's HTTP Basic credential for postToken.
const basicAuth = SandboxClientID + ":" + SandboxClientSecret

// TestTokenExchange checks the authorization_code grant, its answer and every way it fails.
func TestTokenExchange(t *testing.T) {
	h, _ := newOAuthTest(t, Options{OAuthClients: []OAuthClient{
		{ID: SandboxClientID, Secret: SandboxClientSecret}, {ID: "other", Secret: "other-secret"},
	}})
	form := func(code string, override map[string]string) url.Values {
		f := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {oauthCallback}, "code_verifier": {testVerifier}}
		for k, v := range override {
			if v == "" {
				f.Del(k)
			} else {
				f.Set(k, v)
			}
		}
		return f
	}
	tests := []struct {
		name     string
		override map[string]string
		basic    string
		wantCode int
		wantErr  string
	}{
		{"wrong secret", nil, SandboxClientID + ":nope", 401, "invalid_client"},
		{"unknown client", nil, "evil:" + SandboxClientSecret, 401, "invalid_client"},
		{"no client", nil, "", 401, "invalid_client"},
		{"wrong secret in the form", map[string]string{"client_id": SandboxClientID, "client_secret": "nope"}, "", 401, "invalid_client"},
		{"two client authentications", map[string]string{"client_secret": SandboxClientSecret}, basicAuth, 400, "invalid_request"},
		{"another client's code", nil, "other:other-secret", 400, "invalid_grant"},
		{"forged verifier", map[string]string{"code_verifier": strings.Repeat("a", 43)}, basicAuth, 400, "invalid_grant"},
		{"short verifier", map[string]string{"code_verifier": "abc"}, basicAuth, 400, "invalid_grant"},
		{"missing verifier", map[string]string{"code_verifier": ""}, basicAuth, 400, "invalid_request"},
		{"wrong redirect", map[string]string{"redirect_uri": "http://127.0.0.1:1/oauth/callback"}, basicAuth, 400, "invalid_grant"},
		{"missing redirect", map[string]string{"redirect_uri": ""}, basicAuth, 400, "invalid_grant"},
		{"forged code", map[string]string{"code": "sandbox-code.made-up"}, basicAuth, 400, "invalid_grant"},
		{"no code", map[string]string{"code": ""}, basicAuth, 400, "invalid_request"},
		{"unsupported grant", map[string]string{"grant_type": "password"}, basicAuth, 400, "unsupported_grant_type"},
		{"no grant type", map[string]string{"grant_type": ""}, basicAuth, 400, "invalid_request"},
	}
	for _, tt := range tests {
		code := getCode(t, h, scopeProjects)
		status, m := postToken(t, h, "/oauth/token", form(code, tt.override), tt.basic)
		if status != tt.wantCode || m["error"] != tt.wantErr || m["access_token"] != nil {
			t.Errorf("%s: got %d %v; want %d %s", tt.name, status, m, tt.wantCode, tt.wantErr)
		}
		if m["error_description"] == "" {
			t.Errorf("%s: no error_description", tt.name)
		}
	}

	// A failed redemption used the code up (it may have leaked).
	code := getCode(t, h, scopeProjects)
	postToken(t, h, "/oauth/token", form(code, map[string]string{"code_verifier": strings.Repeat("b", 43)}), basicAuth)
	if status, m := postToken(t, h, "/oauth/token", form(code, nil), basicAuth); status != 400 || m["error"] != "invalid_grant" {
		t.Errorf("after a forged verifier: got %d %v; want invalid_grant", status, m)
	}

	// The happy path, with client_secret_post; the answer is not cached.
	code = getCode(t, h, scopeReadonly+" "+scopeMetrics)
	r := httptest.NewRequest("POST", "/oauth/token", strings.NewReader(form(code, map[string]string{
		"client_id": SandboxClientID, "client_secret": SandboxClientSecret}).Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := serve(h, r)
	if w.Code != 200 || w.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("exchange: got %d %q %s; want 200 no-store", w.Code, w.Header().Get("Cache-Control"), w.Body)
	}
	status, m := postToken(t, h, "/oauth/token", form(getCode(t, h, scopeReadonly+" "+scopeMetrics), nil), basicAuth)
	if status != 200 || m["token_type"] != "Bearer" || m["expires_in"] != 3600.0 || m["scope"] != scopeMetrics+" "+scopeReadonly ||
		!strings.HasPrefix(m["access_token"].(string), "sandbox-at.") || !strings.HasPrefix(m["refresh_token"].(string), "sandbox-rt.") {
		t.Errorf("exchange: got %d %v; want Bearer, 3600 s, both tokens, the scopes", status, m)
	}
}

// TestCodeReuseAndExpiry: a code works once, a second use revokes what the first obtained, and
// a code expires after 60 s.
func TestCodeReuseAndExpiry(t *testing.T) {
	h, c := newOAuthTest(t, Options{})
	code := getCode(t, h, scopeProjects)
	status, m := exchange(t, h, code)
	if status != 200 {
		t.Fatalf("first use: got %d %v", status, m)
	}
	access, refresh := m["access_token"].(string), m["refresh_token"].(string)
	if status, m := exchange(t, h, code); status != 400 || m["error"] != "invalid_grant" {
		t.Errorf("reused code: got %d %v; want invalid_grant", status, m)
	}
	if code, v := callAuth(t, h, "GET", "/v1/projects/"+SeedScriptID, "", "Bearer "+access); code != 401 {
		t.Errorf("access token after the code's reuse: got %d %s; want 401 (revoked)", code, js(v))
	}
	if status, m := refreshWith(t, h, refresh, ""); status != 400 || m["error"] != "invalid_grant" {
		t.Errorf("refresh token after the code's reuse: got %d %v; want invalid_grant", status, m)
	}

	code = getCode(t, h, scopeProjects)
	c.advance(codeTTL)
	if status, m := exchange(t, h, code); status != 400 || m["error"] != "invalid_grant" {
		t.Errorf("expired code: got %d %v; want invalid_grant", status, m)
	}
}

// refreshWith sends the refresh_token grant, with scope when non-empty.
func refreshWith(t *testing.T, h http.Handler, refresh, scope string) (int, map[string]any) {
	t.Helper()
	f := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}}
	if scope != "" {
		f.Set("scope", scope)
	}
	return postToken(t, h, "/oauth/token", f, basicAuth)
}

// TestRefreshAndExpiry: an access token expires after AccessTokenTTL (401 from the API), the
// refresh token (which does not rotate) gets a new one, narrower on request, never broader.
func TestRefreshAndExpiry(t *testing.T) {
	h, c := newOAuthTest(t, Options{AccessTokenTTL: 5 * time.Second})
	access, refresh := signIn(t, h, scopeProjects+" "+scopeMetrics)
	const path = "/v1/projects/" + SeedScriptID
	if code, v := callAuth(t, h, "GET", path, "", "Bearer "+access); code != 200 {
		t.Fatalf("fresh token: got %d %s", code, js(v))
	}
	c.advance(5 * time.Second)
	code, v := callAuth(t, h, "GET", path, "", "Bearer "+access)
	if st, msg := errorOf(v); code != 401 || st != "UNAUTHENTICATED" || msg != invalidCredentials ||
		get(v, "error", "details", 0, "reason") != "ACCESS_TOKEN_EXPIRED" {
		t.Errorf("expired token: got %d %s; want 401 ACCESS_TOKEN_EXPIRED", code, js(v))
	}

	status, m := refreshWith(t, h, refresh, "")
	if status != 200 || m["refresh_token"] != nil || m["expires_in"] != 5.0 || m["scope"] != scopeMetrics+" "+scopeProjects {
		t.Fatalf("refresh: got %d %v; want a 5 s token for both scopes, no new refresh token", status, m)
	}
	if code, v := callAuth(t, h, "GET", path, "", "Bearer "+m["access_token"].(string)); code != 200 {
		t.Errorf("refreshed token: got %d %s; want 200", code, js(v))
	}

	status, m = refreshWith(t, h, refresh, scopeMetrics)
	if status != 200 || m["scope"] != scopeMetrics {
		t.Fatalf("narrower refresh: got %d %v; want metrics only", status, m)
	}
	if code, v := callAuth(t, h, "GET", path, "", "Bearer "+m["access_token"].(string)); code != 403 {
		t.Errorf("narrowed token on projects.get: got %d %s; want 403", code, js(v))
	}
	for _, scope := range []string{scopeReadonly, "nope", scopeMetrics + " " + scopeReadonly} {
		if status, m := refreshWith(t, h, refresh, scope); status != 400 || m["error"] != "invalid_scope" {
			t.Errorf("refresh for %q: got %d %v; want invalid_scope", scope, status, m)
		}
	}
	if status, m := refreshWith(t, h, "sandbox-rt.made-up", ""); status != 400 || m["error"] != "invalid_grant" {
		t.Errorf("forged refresh token: got %d %v; want invalid_grant", status, m)
	}
	other := postTokenAs(t, h, "other:s2", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}})
	if other != 401 {
		t.Errorf("refresh by an unknown client: got %d; want 401", other)
	}
}

// postTokenAs posts to the token endpoint with another Basic credential and returns the status.
func postTokenAs(t *testing.T, h http.Handler, basic string, f url.Values) int {
	t.Helper()
	status, _ := postToken(t, h, "/oauth/token", f, basic)
	return status
}

// TestTokenMethod: the token endpoint takes POST only.
func TestTokenMethod(t *testing.T) {
	h, _ := newOAuthTest(t, Options{})
	w := serve(h, httptest.NewRequest("GET", "/oauth/token?grant_type=refresh_token", nil))
	if w.Code != http.StatusMethodNotAllowed || !strings.Contains(w.Body.String(), "invalid_request") {
		t.Errorf("GET: got %d %s; want 405 invalid_request", w.Code, w.Body)
	}
}
