package pgoauth

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"loupe/server/internal/clientip"
	"loupe/server/sandbox/script"
	"loupe/server/sandbox/state"
)

// The script sandbox's authorization server on two replicas sharing ScriptTokens, driven as
// a browser and a client drive it.

const (
	flowHost     = "loupe.test:8161"
	flowCallback = "http://" + flowHost + "/oauth/callback"
	flowVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-replicas-verifier"
	flowScope    = "https://www.googleapis.com/auth/script.projects"
)

// sandboxReplicas returns two script sandboxes on one database and one secret key, and the
// first one's store.
func sandboxReplicas(t *testing.T) ([]http.Handler, *ScriptTokens) {
	t.Helper()
	var out []http.Handler
	stores := twoReplicas(t)
	for _, s := range stores {
		out = append(out, script.New(script.Options{Tokens: s, TokenKey: bytes.Repeat([]byte{3}, 32), SealKey: bytes.Repeat([]byte{4}, 32)}))
	}
	return out, stores[0]
}

// who is a caller: its sandbox session and client address.
type who struct{ session, addr string }

// send serves r on h as w, and returns the answer.
func (c who) send(h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	r.Host = flowHost
	r = r.WithContext(clientip.With(state.WithSession(r.Context(), c.session), c.addr))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

var requestID = regexp.MustCompile(`name="request" value="([^"]+)"`)

// consentForm opens the consent page on h and returns its form's request id.
func (c who) consentForm(t *testing.T, h http.Handler) string {
	t.Helper()
	sum := sha256.Sum256([]byte(flowVerifier))
	q := url.Values{"client_id": {script.SandboxClientID}, "redirect_uri": {flowCallback}, "response_type": {"code"},
		"scope": {flowScope}, "state": {"st"}, "code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])},
		"code_challenge_method": {"S256"}}
	w := c.send(h, httptest.NewRequest("GET", "/oauth/authorize?"+q.Encode(), nil))
	m := requestID.FindStringSubmatch(w.Body.String())
	if w.Code != http.StatusOK || m == nil {
		t.Fatalf("consent page: got %d %.300s; want 200 with a form", w.Code, w.Body)
	}
	return m[1]
}

// answer posts the consent form id with decision on h; it returns the status and the code
// the redirect carries.
func (c who) answer(h http.Handler, id, decision string) (int, string) {
	r := httptest.NewRequest("POST", "/oauth/authorize", strings.NewReader(url.Values{"request": {id}, "decision": {decision}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := c.send(h, r)
	loc, _ := url.Parse(w.Header().Get("Location"))
	if loc == nil {
		return w.Code, ""
	}
	return w.Code, loc.Query().Get("code")
}

// signIn runs the whole flow on h and returns the access token.
func (c who) signIn(t *testing.T, h http.Handler) string {
	t.Helper()
	code, authCode := c.answer(h, c.consentForm(t, h), "allow")
	if code != http.StatusFound || authCode == "" {
		t.Fatalf("allow: got %d, code %q; want 302 with a code", code, authCode)
	}
	r := httptest.NewRequest("POST", "/oauth/token", strings.NewReader(url.Values{"grant_type": {"authorization_code"},
		"code": {authCode}, "redirect_uri": {flowCallback}, "code_verifier": {flowVerifier}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.SetBasicAuth(script.SandboxClientID, script.SandboxClientSecret)
	w := c.send(h, r)
	var m struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &m); w.Code != http.StatusOK || err != nil || m.AccessToken == "" {
		t.Fatalf("token: got %d %s; want 200 with a token", w.Code, w.Body)
	}
	return m.AccessToken
}

// call reads the seeded project on h with the access token and returns the status.
func (c who) call(h http.Handler, token string) int {
	r := httptest.NewRequest("GET", "/v1/projects/"+script.SeedScriptID, nil)
	r.Header.Set("Authorization", "Bearer "+token)
	return c.send(h, r).Code
}

// TestConsentReplayedOnAnotherReplica: a consent form answered on one replica cannot be
// answered again on the other (a second code for one request; Deny turned into Allow).
func TestConsentReplayedOnAnotherReplica(t *testing.T) {
	hs, _ := sandboxReplicas(t)
	browser := who{session: "anon:b1", addr: "198.51.100.7"}
	id := browser.consentForm(t, hs[0])
	if code, authCode := browser.answer(hs[0], id, "allow"); code != http.StatusFound || authCode == "" {
		t.Fatalf("allow on A: got %d, code %q; want 302 with a code", code, authCode)
	}
	if code, authCode := browser.answer(hs[1], id, "allow"); code != http.StatusBadRequest || authCode != "" {
		t.Errorf("the same form replayed on B: got %d, code %q; want 400 and no code", code, authCode)
	}
	id = browser.consentForm(t, hs[1])
	if code, _ := browser.answer(hs[1], id, "deny"); code != http.StatusFound {
		t.Fatalf("deny on B: got %d; want 302", code)
	}
	if code, authCode := browser.answer(hs[0], id, "allow"); code != http.StatusBadRequest || authCode != "" {
		t.Errorf("a denied form answered Allow on A: got %d, code %q; want 400 and no code", code, authCode)
	}
}

// TestSignInFloodAcrossReplicas: a signed-in user signs in, then one anonymous client signs in
// 20 times alternating between the replicas: it keeps 16 grants in all (each replica's own
// bound would have kept 16 each), and the user's token still works on both.
func TestSignInFloodAcrossReplicas(t *testing.T) {
	hs, store := sandboxReplicas(t)
	ada := who{session: state.UserSession("ada"), addr: "203.0.113.9"}
	token := ada.signIn(t, hs[0])
	for i := range 20 {
		who{session: "anon:flood", addr: "203.0.113.9"}.signIn(t, hs[i%2])
	}
	if n := count(t, store, `SELECT count(*) FROM script_grants`) - 1; n != 16 {
		t.Errorf("one client's 20 sign-ins over two replicas: got %d grants kept besides the user's; want 16 in all", n)
	}
	for i, h := range hs {
		if code := ada.call(h, token); code != http.StatusOK {
			t.Errorf("the signed-in user's token on replica %d after the flood: got %d; want 200", i, code)
		}
	}
}
