package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"loupe/server/proxy"
)

// bearer runs the proxy hook for user "local" and returns the Authorization it would send.
func (e *env) bearer(t *testing.T) (string, error) {
	t.Helper()
	apply, err := e.svc.Authorize("script")(context.Background(), "local")
	if err != nil || apply == nil {
		return "", err
	}
	r := httptest.NewRequest("GET", "/x", nil)
	apply(r)
	return r.Header.Get("Authorization"), nil
}

func TestSignInNarrowedThenStatusAndBearer(t *testing.T) {
	e := newEnv(t)
	if auth, err := e.bearer(t); auth != "" || err != nil {
		t.Fatalf("before sign-in: got %q, %v; want the API's own credential (nil)", auth, err)
	}
	code, at, body := e.get(t, "/oauth/start?api=script&scope=s.readonly&scope=userinfo.email&return=/script/projectsGet")
	if code != 200 || !strings.HasSuffix(at, "/script/projectsGet") {
		t.Fatalf("after sign-in: got %d at %s (%s); want 200 back at /script/projectsGet", code, at, body)
	}
	st, raw := e.status(t)
	if !st.SignedIn || st.Who != "ada@example.com" || !slices.Equal(st.Scopes, []string{"s.readonly", "userinfo.email"}) || !st.Renews || st.Expires == nil {
		t.Errorf("status: got %+v; want signed in as ada@example.com with s.readonly, userinfo.email", st)
	}
	auth, err := e.bearer(t)
	tok := strings.TrimPrefix(auth, "Bearer ")
	if err != nil || !e.as.valid(tok) {
		t.Fatalf("bearer: got %q, %v; want a live access token", auth, err)
	}
	for where, s := range map[string]string{"status": raw, "final URL": at, "log": e.log.String()} {
		if strings.Contains(s, tok) || strings.Contains(s, "refresh-") || strings.Contains(s, "code-") {
			t.Errorf("%s holds a token or code: %s", where, s)
		}
	}
	if !slices.Contains(e.secrets.Values(), tok) {
		t.Errorf("the access token is not registered with the masker")
	}
	for _, c := range e.browser.Jar.Cookies(mustURL(e.loupe.URL + "/oauth/")) {
		if c.Value != "" {
			t.Errorf("cookie %s left after the sign-in", c.Name)
		}
	}
}

func TestShortLivedTokensRenewSilently(t *testing.T) {
	e := newEnv(t)
	e.as.ttl = time.Second
	e.get(t, "/oauth/start?api=script&scope=s.projects")
	first, _ := e.bearer(t)
	seen := map[string]bool{}
	deadline := time.Now().Add(4 * time.Second)
	for time.Now().Before(deadline) {
		auth, err := e.bearer(t)
		if err != nil || !e.as.valid(strings.TrimPrefix(auth, "Bearer ")) {
			t.Fatalf("a call across expiry: got %q, %v; want a live token", auth, err)
		}
		seen[auth] = true
		time.Sleep(100 * time.Millisecond)
	}
	if len(seen) < 3 || seen[first] && len(seen) == 1 {
		t.Errorf("got %d distinct tokens over 4 s of 1 s tokens; want renewals", len(seen))
	}
	if n := len(e.secrets.Values()); n > 4 {
		t.Errorf("the masker holds %d token values; want at most the current and previous ones (4)", n)
	}
}

func TestRevokedRefreshTokenAsksToSignInAgain(t *testing.T) {
	e := newEnv(t)
	e.as.ttl = time.Second
	e.get(t, "/oauth/start?api=script&scope=s.projects")
	e.as.revokeAll()
	time.Sleep(1100 * time.Millisecond)
	_, err := e.bearer(t)
	var ae *proxy.AuthError
	if !errors.As(err, &ae) || ae.Status != 401 || !strings.Contains(ae.Message, "sign-in to Script has ended") || !strings.Contains(ae.Check, "sign in to Script again") {
		t.Fatalf("got %v; want a 401 that says to sign in to Script again", err)
	}
	if st, _ := e.status(t); st.SignedIn {
		t.Errorf("status after the refused renewal: got signed in; want the grant forgotten")
	}
	if auth, err := e.bearer(t); auth != "" || err != nil {
		t.Errorf("next call: got %q, %v; want the API key again (nil)", auth, err)
	}
	if len(e.secrets.Values()) != 0 {
		t.Errorf("the masker still holds the forgotten grant's tokens")
	}
}

func TestSignOutRevokesAndForgets(t *testing.T) {
	e := newEnv(t)
	e.get(t, "/oauth/start?api=script&scope=s.projects")
	auth, _ := e.bearer(t)
	req, _ := http.NewRequest("POST", e.loupe.URL+"/oauth/signout?api=script&return=/script", nil)
	res, err := e.browser.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.Request.URL.Path != "/script" {
		t.Errorf("after sign-out: at %s; want /script", res.Request.URL.Path)
	}
	if st, _ := e.status(t); st.SignedIn {
		t.Error("still signed in after Sign out")
	}
	if len(e.as.revoked) != 2 || !slices.Contains(e.as.revoked, strings.TrimPrefix(auth, "Bearer ")) {
		t.Errorf("revoked %d tokens; want the refresh and the access token", len(e.as.revoked))
	}
}

// TestBadInput: each is a clear page, and nothing is stored.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(*env)
		path   string
		status int
		want   []string
	}{
		{"unknown api", nil, "/oauth/start?api=weather", 404, []string{"There is no API &#34;weather&#34; that signs in with OAuth", "here are: script"}},
		{"unknown scope", nil, "/oauth/start?api=script&scope=drive", 400, []string{"Script has no scope &#34;drive&#34;"}},
		{"no scope", nil, "/oauth/start?api=script", 400, []string{"needs at least one scope"}},
		{"denied consent", func(e *env) { e.as.deny = true }, "/oauth/start?api=script&scope=s.projects", 403, []string{"You denied Loupe access to Script", "the API key (?key=)"}},
		{"wrong client secret", func(e *env) { e.svc.providers["script"].ClientSecret = "wrong" }, "/oauth/start?api=script&scope=s.projects", 502,
			[]string{"refused the client id or secret (invalid_client)", "apis.script.credential.client_id", "apis.script.credential.client_secret"}},
		{"forged state", nil, "/oauth/callback?state=forged&code=code-0001-secretvalue", 400, []string{"Sign-in not recognised", "Start again with Sign in"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			if tt.setup != nil {
				tt.setup(e)
			}
			code, _, body := e.get(t, tt.path)
			if code != tt.status {
				t.Errorf("status: got %d; want %d (%s)", code, tt.status, body)
			}
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("page: got %s; want it to say %q", body, w)
				}
			}
			if st, _ := e.status(t); st.SignedIn {
				t.Error("a grant was stored")
			}
		})
	}
}

// TestStateBoundToTheBrowser: a callback with the right state but from another browser (no
// cookie) is refused, and the sign-in cannot be finished afterwards either.
func TestStateBoundToTheBrowser(t *testing.T) {
	e := newEnv(t)
	noFollow := &http.Client{Jar: e.browser.Jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noFollow.Get(e.loupe.URL + "/oauth/start?api=script&scope=s.projects")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	res, err = noFollow.Get(res.Header.Get("Location")) // the AS approves and sends back
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	callback := res.Header.Get("Location")
	other := &http.Client{} // another browser: no state cookie
	res, err = other.Get(callback)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 400 {
		t.Errorf("callback from another browser: got %d; want 400", res.StatusCode)
	}
	if st, _ := e.status(t); st.SignedIn {
		t.Error("a grant was stored")
	}
}

func mustURL(s string) *urlT { u, _ := parseURL(s); return u }

// TestStatusOfAnAPIWithoutSignIn: the page of an API whose document has an OAuth scheme asks
// for its status; where the server has no client for it the answer is 200, "not offered", so
// the browser's console logs no failed request on every load of the page.
func TestStatusOfAnAPIWithoutSignIn(t *testing.T) {
	e := newEnv(t)
	code, _, body := e.get(t, "/oauth/status?api=reports")
	var st Status
	if err := json.Unmarshal([]byte(body), &st); err != nil || code != 200 {
		t.Fatalf("got %d %q (%v); want 200 and a status", code, body, err)
	}
	if st.API != "reports" || st.Offered() || st.SignedIn || len(st.Available) != 0 {
		t.Errorf("got %+v; want reports, not offered, nothing to ask for", st)
	}
	if st, _ := e.status(t); !st.Offered() {
		t.Errorf("script: got %+v; want sign-in offered", st)
	}
}
