package server

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"loupe/server/config"
	"loupe/server/sandbox/script"
)

const (
	scopeRO      = "https://www.googleapis.com/auth/script.projects.readonly"
	scopeProject = "https://www.googleapis.com/auth/script.projects"
	scopeEmail   = "https://www.googleapis.com/auth/userinfo.email"
)

// oauthEnv is a real server whose script sandbox issues tokens that live ttl, a browser-like
// client (cookies, redirects) and everything the server logged.
type oauthEnv struct {
	t    *testing.T
	srv  *Server
	ts   *httptest.Server
	c    *http.Client
	mu   sync.Mutex
	logs bytes.Buffer
	seen []string // every body and header the client received
}

func newOAuthEnv(t *testing.T, ttl time.Duration, settings *config.Config) *oauthEnv {
	e := &oauthEnv{t: t}
	log := slog.New(slog.NewTextHandler(lockedBuf{&e.mu, &e.logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv, err := New(Config{Logger: log, ScriptAccessTokenTTL: ttl, Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	e.ts = httptest.NewServer(srv)
	t.Cleanup(func() { e.ts.Close(); srv.Close() })
	jar, _ := cookiejar.New(nil)
	e.c = &http.Client{Jar: jar}
	return e
}

type lockedBuf struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (l lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// do sends a request from the "browser" and returns the final status, URL and body.
func (e *oauthEnv) do(method, path string, form url.Values) (int, string, string) {
	e.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	u := path
	if strings.HasPrefix(path, "/") {
		u = e.ts.URL + path
	}
	req, _ := http.NewRequest(method, u, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	res, err := e.c.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var h bytes.Buffer
	res.Header.Write(&h)
	e.seen = append(e.seen, h.String()+string(b)+res.Request.URL.String())
	return res.StatusCode, res.Request.URL.String(), string(b)
}

var consentRequest = regexp.MustCompile(`name="request" value="([^"]+)"`)

// signIn goes through /oauth/start and the sandbox's consent page, answering decision.
func (e *oauthEnv) signIn(decision string, scopes ...string) (int, string, string) {
	e.t.Helper()
	q := url.Values{"api": {"script"}, "scope": scopes, "return": {"/script/projects.get"}}
	code, at, body := e.do("GET", "/oauth/start?"+q.Encode(), nil)
	m := consentRequest.FindStringSubmatch(body)
	if code != 200 || m == nil {
		return code, at, body // a page of Loupe's own
	}
	return e.do("POST", at, url.Values{"request": {m[1]}, "decision": {decision}})
}

func (e *oauthEnv) grantTokens() []string { return e.srv.secrets.Values() }

func TestOAuthAgainstTheScriptSandbox(t *testing.T) {
	e := newOAuthEnv(t, 2*time.Second, nil)
	get := "/proxy/script/v1/projects/" + script.SeedScriptID
	// Before anyone signs in, the sandbox key goes, as before.
	if code, _, body := e.do("GET", get, nil); code != 200 {
		t.Fatalf("before sign-in: got %d %s; want 200 with the API key", code, body)
	}
	code, at, body := e.signIn("allow", scopeRO, scopeEmail)
	if code != 200 || !strings.HasSuffix(at, "/script/projects.get") {
		t.Fatalf("sign-in: got %d at %s: %.300s", code, at, body)
	}
	_, _, status := e.do("GET", "/oauth/status?api=script", nil)
	for _, want := range []string{`"signedIn":true`, `"who":"`, scopeRO, `"renews":true`} {
		if !strings.Contains(status, want) {
			t.Errorf("status: got %s; want it to contain %s", status, want)
		}
	}
	// A method the grant's scopes do not cover: the sandbox's 403, with the grant's token.
	code, _, body = e.do("POST", "/proxy/script/v1/projects", nil)
	if code != 403 || !strings.Contains(body, "insufficient authentication scopes") {
		t.Errorf("create with a read-only grant: got %d %s; want 403 insufficient scopes", code, body)
	}
	// Calls across several expiries keep working: the grant is renewed on the server.
	tokens := map[string]bool{}
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(250 * time.Millisecond) {
		if code, _, body := e.do("GET", get, nil); code != 200 {
			t.Fatalf("a call across expiry: got %d %s; want 200", code, body)
		}
		for _, tok := range e.grantTokens() {
			tokens[tok] = true
		}
	}
	if len(tokens) < 4 {
		t.Errorf("saw %d token values over 5 s of 2 s tokens; want renewals", len(tokens))
	}
	// Sign in again with the scope that was missing: the call works.
	if code, _, body := e.signIn("allow", scopeProject, scopeEmail); code != 200 {
		t.Fatalf("second sign-in: got %d %.300s", code, body)
	}
	if code, _, body := e.do("POST", "/proxy/script/v1/projects", nil); code == 403 || code == 401 {
		t.Errorf("create with script.projects: got %d %s; want the sandbox to accept the token", code, body)
	}
	// The provider revokes the grant (the user did it at their account page): the next renewal
	// is refused, and the proxy says to sign in again.
	var refresh string
	for _, tok := range e.grantTokens() {
		if strings.HasPrefix(tok, "sandbox-rt.") {
			refresh = tok
		}
	}
	req, _ := http.NewRequest("POST", e.ts.URL+"/sandbox/script/oauth/revoke", strings.NewReader(url.Values{"token": {refresh}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(script.SandboxClientID, script.SandboxClientSecret)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 200 {
		t.Fatalf("revoking: %v %v", res, err)
	}
	if refresh == "" {
		t.Fatal("the grant holds no refresh token")
	}
	time.Sleep(2100 * time.Millisecond)
	code, _, body = e.do("GET", get, nil)
	if code != 401 || !strings.Contains(body, "sign in to Script Projects API again") {
		t.Errorf("after revocation: got %d %s; want 401 saying to sign in again", code, body)
	}
	if _, _, status := e.do("GET", "/oauth/status?api=script", nil); !strings.Contains(status, `"signedIn":false`) || !strings.Contains(status, `"fallbackParam":"key"`) {
		t.Errorf("status after revocation: got %s; want signed out, calls going with ?key=", status)
	}
	e.noTokenShown(tokens)
}

// noTokenShown fails if any token value reached a response, a URL or the log.
func (e *oauthEnv) noTokenShown(tokens map[string]bool) {
	e.t.Helper()
	e.mu.Lock()
	logs := e.logs.String()
	e.mu.Unlock()
	for tok := range tokens {
		for i, s := range e.seen {
			if strings.Contains(s, tok) {
				e.t.Errorf("answer %d holds a token: %.300s", i, s)
			}
		}
		if strings.Contains(logs, tok) {
			e.t.Errorf("the log holds a token")
		}
	}
	for _, bad := range []string{"code_verifier", "sandbox-code.", script.SandboxClientSecret} {
		if strings.Contains(logs, bad) {
			e.t.Errorf("the log holds %q", bad)
		}
	}
}

// TestOAuthBadInputAgainstTheSandbox: a wrong client secret, a denied consent, a forged state
// and an unknown API each end on a page that says what to do, and nothing is stored.
func TestOAuthBadInputAgainstTheSandbox(t *testing.T) {
	wrong, err := config.Parse([]byte("apis:\n  script:\n    credential:\n      send: oauth2\n      client_secret: {value: not-the-secret}\n"), "loupe.yaml", func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		settings *config.Config
		run      func(e *oauthEnv) (int, string, string)
		status   int
		want     []string
	}{
		{"wrong client secret", wrong, func(e *oauthEnv) (int, string, string) { return e.signIn("allow", scopeRO) }, 502,
			[]string{"refused the client id or secret (invalid_client)", "apis.script.credential.client_secret"}},
		{"denied consent", nil, func(e *oauthEnv) (int, string, string) { return e.signIn("deny", scopeRO) }, 403,
			[]string{"You denied Loupe access to Script Projects API", "the API key (?key=)"}},
		{"forged state", nil, func(e *oauthEnv) (int, string, string) {
			e.do("GET", "/oauth/start?api=script&scope="+url.QueryEscape(scopeRO), nil) // a real sign-in is pending
			return e.do("GET", "/oauth/callback?state=forged&code=sandbox-code.x", nil)
		}, 400, []string{"Sign-in not recognised"}},
		{"unknown api", nil, func(e *oauthEnv) (int, string, string) { return e.do("GET", "/oauth/start?api=chat", nil) }, 404,
			[]string{"There is no API &#34;chat&#34; that signs in with OAuth", "here are: script"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newOAuthEnv(t, 0, tt.settings)
			code, _, body := tt.run(e)
			if code != tt.status {
				t.Errorf("status: got %d; want %d: %.400s", code, tt.status, body)
			}
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("page: got %.600s; want it to say %q", body, w)
				}
			}
			if _, _, st := e.do("GET", "/oauth/status?api=script", nil); !strings.Contains(st, `"signedIn":false`) || len(e.grantTokens()) != 0 {
				t.Errorf("something was stored: %s", st)
			}
		})
	}
}
