package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestAuthorizeSendsTheUsersToken: a user's own credential replaces the API's, a refusal is
// answered with its words, and a token registered in the SecretSet is masked like a key.
func TestAuthorizeSendsTheUsersToken(t *testing.T) {
	const userToken = "ya29.user-TOKEN-0123456789"
	secrets := &SecretSet{}
	var refuse bool
	h := newHarness(t, func(c *Config) {
		c.Secrets = secrets
		c.APIs["script"].Authorize = func(ctx context.Context, user string) (func(*http.Request), error) {
			switch {
			case refuse:
				return nil, &AuthError{Status: 401, Message: "script: your sign-in to Script has ended", Check: "sign in to Script again"}
			case user == "local":
				return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+userToken) }, nil
			}
			return nil, nil
		}
	})
	h.backend.setHandler(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Echo", r.Header.Get("Authorization"))
		fmt.Fprintf(w, `{"auth":%q}`, r.Header.Get("Authorization"))
	})
	secrets.Add(userToken)
	resp, body := h.do(t, "GET", "/proxy/script/v1/projects/p1", nil, nil)
	if got, want := body, `{"auth":"Bearer `+strings.Repeat("*", len(userToken))+`"}`; got != want {
		t.Errorf("body: got %s; want %s (the user's token sent, and masked)", got, want)
	}
	if strings.Contains(resp.Header.Get("X-Echo"), userToken) {
		t.Errorf("header: got %q; want the token masked", resp.Header.Get("X-Echo"))
	}
	secrets.Remove(userToken)
	_, body = h.do(t, "GET", "/proxy/script/v1/projects/p1", nil, nil)
	if !strings.Contains(body, userToken) {
		t.Errorf("after Remove: got %s; want the token no longer masked", body)
	}
	refuse = true
	resp, body = h.do(t, "GET", "/proxy/script/v1/projects/p1", nil, nil)
	var e errorBody
	json.Unmarshal([]byte(body), &e)
	if resp.StatusCode != 401 || e.API != "script" || e.Error != "script: your sign-in to Script has ended" || e.Check != "sign in to Script again" {
		t.Errorf("refused: got %d %s; want 401 with the hook's words", resp.StatusCode, body)
	}
}
