package script

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
)

// TestUserinfo answers the account for a token with userinfo.email, 403 without it, 401
// without a live token.
func TestUserinfo(t *testing.T) {
	h, _ := newOAuthTest(t, Options{})
	withEmail, _ := signIn(t, h, scopeProjects+" "+scopeUserinfoEmail)
	without, _ := signIn(t, h, scopeProjects)
	tests := []struct {
		name, auth string
		wantCode   int
		want       string // a field of the answer
	}{
		{"email scope", "Bearer " + withEmail, 200, SandboxAccount},
		{"no email scope", "Bearer " + without, 403, "PERMISSION_DENIED"},
		{"unknown token", "Bearer sandbox-at.nope", 401, "invalid_token"},
		{"the API key", "Bearer loupe-sandbox-key", 401, "invalid_token"},
		{"none", "", 401, "invalid_token"},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/oauth/userinfo", nil)
		if tt.auth != "" {
			r.Header.Set("Authorization", tt.auth)
		}
		w := serve(h, r)
		var v any
		_ = json.Unmarshal(w.Body.Bytes(), &v)
		got := get(v, "email")
		if tt.wantCode == 403 {
			got = get(v, "error", "status")
		} else if tt.wantCode == 401 {
			got = get(v, "error")
		}
		if w.Code != tt.wantCode || got != tt.want {
			t.Errorf("%s: got %d %s; want %d %s", tt.name, w.Code, w.Body, tt.wantCode, tt.want)
		}
		if tt.wantCode == 200 && (get(v, "email_verified") != true || get(v, "sub") != sandboxSubject) {
			t.Errorf("%s: got %s; want sub and email_verified", tt.name, w.Body)
		}
	}
}
