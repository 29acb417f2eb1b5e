package script

import (
	"net/http/httptest"
	"net/url"
	"testing"
)

// TestRevoke: revoking a refresh token revokes the grant and its access tokens; revoking an
// access token revokes just it; unknown tokens answer 200; wrong client credentials 401.
func TestRevoke(t *testing.T) {
	h, _ := newOAuthTest(t, Options{OAuthClients: []OAuthClient{
		{ID: SandboxClientID, Secret: SandboxClientSecret}, {ID: "other", Secret: "other-secret"},
	}})
	const path = "/v1/projects/" + SeedScriptID
	works := func(access string) bool {
		code, _ := callAuth(t, h, "GET", path, "", "Bearer "+access)
		return code == 200
	}
	revoke := func(token, basic string) int {
		status, _ := postToken(t, h, "/oauth/revoke", url.Values{"token": {token}}, basic)
		return status
	}

	a1, r1 := signIn(t, h, scopeProjects)
	_, m := refreshWith(t, h, r1, "")
	a2 := m["access_token"].(string)
	if status := revoke(a1, ""); status != 200 || works(a1) || !works(a2) {
		t.Errorf("revoke an access token: got %d, revoked works=%v, sibling works=%v; want 200, false, true", status, works(a1), works(a2))
	}
	if status := revoke(r1, basicAuth); status != 200 || works(a2) {
		t.Errorf("revoke the refresh token: got %d, its access token works=%v; want 200, false", status, works(a2))
	}
	if status, m := refreshWith(t, h, r1, ""); status != 400 || m["error"] != "invalid_grant" {
		t.Errorf("refresh after revocation: got %d %v; want invalid_grant", status, m)
	}

	if status := revoke("sandbox-rt.unknown", ""); status != 200 {
		t.Errorf("unknown token: got %d; want 200", status)
	}
	a3, r3 := signIn(t, h, scopeProjects)
	if status := revoke(r3, SandboxClientID+":nope"); status != 401 || !works(a3) {
		t.Errorf("wrong client secret: got %d, works=%v; want 401 and nothing revoked", status, works(a3))
	}
	if status := revoke(r3, "other:other-secret"); status != 200 || !works(a3) {
		t.Errorf("another client's token: got %d, works=%v; want 200 and nothing revoked", status, works(a3))
	}
	if status := revoke("", ""); status != 400 {
		t.Errorf("no token: got %d; want 400", status)
	}
	if w := serve(h, httptest.NewRequest("GET", "/oauth/revoke?token="+r3, nil)); w.Code != 405 || !works(a3) {
		t.Errorf("GET: got %d; want 405 and nothing revoked", w.Code)
	}
}
