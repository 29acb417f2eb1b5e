package script

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// oauthHost is the Host the tests' browser reaches the sandbox on; oauthCallback is the
// client's callback on it.
const (
	oauthHost     = "loupe.test:8161"
	oauthCallback = "http://" + oauthHost + "/oauth/callback"
	testVerifier  = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-sandbox-verifier"
)

// challengeOf is the S256 code_challenge of verifier.
func challengeOf(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// newOAuthTest returns a seeded handler whose clock the test moves, with the default client.
func newOAuthTest(t *testing.T, opts Options) (http.Handler, *clock) {
	t.Helper()
	c := &clock{}
	c.set(t, "2026-11-20T12:10:00Z")
	opts.Now = c.now
	return New(opts), c
}

// advance moves the clock on by d.
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

// authorizeQuery is a valid authorization request for scopes, with the given overrides
// (an empty value deletes the parameter).
func authorizeQuery(scopes string, override map[string]string) url.Values {
	q := url.Values{
		"client_id": {SandboxClientID}, "redirect_uri": {oauthCallback}, "response_type": {"code"},
		"scope": {scopes}, "state": {"st-123"}, "code_challenge": {challengeOf(testVerifier)},
		"code_challenge_method": {"S256"},
	}
	for k, v := range override {
		if v == "" {
			q.Del(k)
		} else {
			q.Set(k, v)
		}
	}
	return q
}

// serve sends r to h on oauthHost and returns the recorded answer.
func serve(h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	r.Host = oauthHost
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// requestIDPattern finds the consent form's request id.
var requestIDPattern = regexp.MustCompile(`name="request" value="([^"]+)"`)

// openConsent GETs the consent page of q and returns the request id it carries.
func openConsent(t *testing.T, h http.Handler, q url.Values) string {
	t.Helper()
	w := serve(h, httptest.NewRequest("GET", "/oauth/authorize?"+q.Encode(), nil))
	m := requestIDPattern.FindStringSubmatch(w.Body.String())
	if w.Code != http.StatusOK || m == nil {
		t.Fatalf("consent page: got %d %s; want 200 with a form", w.Code, w.Body)
	}
	return m[1]
}

// answerConsent POSTs the consent form with decision and returns the answer.
func answerConsent(h http.Handler, id, decision string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", "/oauth/authorize", strings.NewReader(url.Values{"request": {id}, "decision": {decision}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return serve(h, r)
}

// getCode signs in for scopes with Allow and returns the code from the redirect.
func getCode(t *testing.T, h http.Handler, scopes string) string {
	t.Helper()
	w := answerConsent(h, openConsent(t, h, authorizeQuery(scopes, nil)), "allow")
	loc, err := url.Parse(w.Header().Get("Location"))
	if w.Code != http.StatusFound || err != nil || loc.Query().Get("code") == "" {
		t.Fatalf("allow: got %d, Location %q; want 302 with a code", w.Code, w.Header().Get("Location"))
	}
	return loc.Query().Get("code")
}

// postToken POSTs form to the token endpoint, with HTTP Basic when basic is non-empty
// ("id:secret"), and decodes the JSON answer.
func postToken(t *testing.T, h http.Handler, path string, form url.Values, basic string) (int, map[string]any) {
	t.Helper()
	r := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if id, secret, ok := strings.Cut(basic, ":"); ok {
		r.SetBasicAuth(id, secret)
	}
	w := serve(h, r)
	var m map[string]any
	if w.Body.Len() > 0 {
		if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
			t.Fatalf("%s: decoding %q: %v", path, w.Body, err)
		}
	}
	return w.Code, m
}

// exchange redeems code with the default client and the test verifier.
func exchange(t *testing.T, h http.Handler, code string) (int, map[string]any) {
	t.Helper()
	return postToken(t, h, "/oauth/token", url.Values{"grant_type": {"authorization_code"}, "code": {code},
		"redirect_uri": {oauthCallback}, "code_verifier": {testVerifier}}, SandboxClientID+":"+SandboxClientSecret)
}

// signIn runs the whole flow for scopes and returns the access and refresh tokens.
func signIn(t *testing.T, h http.Handler, scopes string) (access, refresh string) {
	t.Helper()
	code, m := exchange(t, h, getCode(t, h, scopes))
	if code != http.StatusOK {
		t.Fatalf("exchange: got %d %v; want 200", code, m)
	}
	return m["access_token"].(string), m["refresh_token"].(string)
}
