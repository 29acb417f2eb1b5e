package oauth

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"loupe/server/proxy"
)

// fakeAS is a small authorization server for the tests: it approves (or denies) at once,
// checks PKCE and the client, issues tokens that live ttl, refreshes and revokes them.
type fakeAS struct {
	t      *testing.T
	srv    *httptest.Server
	secret string
	ttl    time.Duration
	deny   bool

	mu       sync.Mutex
	n        int
	codes    map[string]codeGrant
	access   map[string]time.Time // token → expiry
	refresh  map[string][]string  // refresh token → scopes
	revoked  []string
	refreshN int
}

type codeGrant struct {
	challenge, redirect string
	scopes              []string
}

func newFakeAS(t *testing.T) *fakeAS {
	a := &fakeAS{t: t, secret: "client-secret-xyz", ttl: time.Hour, codes: map[string]codeGrant{}, access: map[string]time.Time{}, refresh: map[string][]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/authorize", a.authorize)
	mux.HandleFunc("/token", a.token)
	mux.HandleFunc("/revoke", a.revoke)
	mux.HandleFunc("/userinfo", a.userinfo)
	a.srv = httptest.NewServer(mux)
	t.Cleanup(a.srv.Close)
	return a
}

func (a *fakeAS) next(prefix string) string {
	a.n++
	return fmt.Sprintf("%s-%04d-secretvalue", prefix, a.n)
}

func (a *fakeAS) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	back, _ := url.Parse(q.Get("redirect_uri"))
	v := url.Values{"state": {q.Get("state")}}
	if a.deny {
		v.Set("error", "access_denied")
	} else if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
		v.Set("error", "invalid_request")
	} else {
		a.mu.Lock()
		code := a.next("code")
		a.codes[code] = codeGrant{q.Get("code_challenge"), q.Get("redirect_uri"), strings.Fields(q.Get("scope"))}
		a.mu.Unlock()
		v.Set("code", code)
	}
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (a *fakeAS) fail(w http.ResponseWriter, status int, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"error":%q}`, code)
}

func (a *fakeAS) token(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	id, sec, ok := r.BasicAuth()
	if !ok {
		id, sec = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id != "client-1" || sec != a.secret {
		a.fail(w, 401, "invalid_client")
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	var scopes []string
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		c, ok := a.codes[r.PostForm.Get("code")]
		delete(a.codes, r.PostForm.Get("code"))
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge || c.redirect != r.PostForm.Get("redirect_uri") {
			a.fail(w, 400, "invalid_grant")
			return
		}
		scopes = c.scopes
	case "refresh_token":
		s, ok := a.refresh[r.PostForm.Get("refresh_token")]
		if !ok {
			a.fail(w, 400, "invalid_grant")
			return
		}
		a.refreshN++
		scopes = s
	default:
		a.fail(w, 400, "unsupported_grant_type")
		return
	}
	acc := a.next("access")
	a.access[acc] = time.Now().Add(a.ttl)
	rt := r.PostForm.Get("refresh_token")
	if rt == "" {
		rt = a.next("refresh")
		a.refresh[rt] = scopes
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"access_token": acc, "token_type": "Bearer", "expires_in": int(a.ttl / time.Second),
		"refresh_token": rt, "scope": strings.Join(scopes, " ")})
}

func (a *fakeAS) revoke(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	a.mu.Lock()
	defer a.mu.Unlock()
	tok := r.PostForm.Get("token")
	a.revoked = append(a.revoked, tok)
	delete(a.refresh, tok)
	delete(a.access, tok)
}

func (a *fakeAS) userinfo(w http.ResponseWriter, r *http.Request) {
	tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	a.mu.Lock()
	exp, ok := a.access[tok]
	a.mu.Unlock()
	if !ok || time.Now().After(exp) {
		a.fail(w, 401, "invalid_token")
		return
	}
	fmt.Fprint(w, `{"sub":"1","email":"ada@example.com"}`)
}

// revokeAll revokes every refresh token, as a user would at the provider's account page.
func (a *fakeAS) revokeAll() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.refresh = map[string][]string{}
}

// valid reports whether an access token is known and alive.
func (a *fakeAS) valid(tok string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	exp, ok := a.access[tok]
	return ok && time.Now().Before(exp)
}

// env is a Service mounted on a test server, with a fake AS and a browser (cookie jar).
type env struct {
	as      *fakeAS
	svc     *Service
	loupe   *httptest.Server
	browser *http.Client
	secrets *proxy.SecretSet
	log     *strings.Builder
}

func newEnv(t *testing.T) *env { return newEnvWith(t, nil) }

// newEnvWith is newEnv with the Service's options changed by opts (nil: none).
func newEnvWith(t *testing.T, opts func(*Options)) *env {
	e := &env{as: newFakeAS(t), secrets: &proxy.SecretSet{}, log: &strings.Builder{}}
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(lockedWriter{&mu, e.log}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	p := &Provider{API: "script", Title: "Script", ClientID: "client-1", ClientSecret: "client-secret-xyz",
		AuthURL: e.as.srv.URL + "/authorize", TokenURL: e.as.srv.URL + "/token", RevokeURL: e.as.srv.URL + "/revoke", UserinfoURL: e.as.srv.URL + "/userinfo",
		Scopes:    []Scope{{Name: "s.projects", Description: "Create and update"}, {Name: "s.readonly", Description: "View"}, {Name: "userinfo.email", Description: "Email"}},
		ConfigKey: "apis.script.credential", Fallback: "the API key (?key=)"}
	o := Options{Providers: map[string]*Provider{"script": p}, Secrets: e.secrets, Logger: logger}
	if opts != nil {
		opts(&o)
	}
	e.svc = New(o)
	mux := http.NewServeMux()
	mux.Handle(Prefix, e.svc)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "page "+r.URL.Path) })
	e.loupe = httptest.NewServer(mux)
	t.Cleanup(e.loupe.Close)
	jar, _ := cookiejar.New(nil)
	e.browser = &http.Client{Jar: jar}
	return e
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *strings.Builder
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// get fetches path on Loupe with the browser, following redirects; it returns the final
// status, URL and body.
func (e *env) get(t *testing.T, path string) (int, string, string) {
	t.Helper()
	res, err := e.browser.Get(e.loupe.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Request.URL.String(), string(b)
}

// status reads /oauth/status?api=script.
func (e *env) status(t *testing.T) (Status, string) {
	t.Helper()
	_, _, body := e.get(t, "/oauth/status?api=script")
	var st Status
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatalf("status %q: %v", body, err)
	}
	return st, body
}

type urlT = url.URL

func parseURL(s string) (*url.URL, error) { return url.Parse(s) }
