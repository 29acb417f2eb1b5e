package server

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"loupe/server/config"
	"loupe/server/sandbox/script"
)

// restartSettings is mode users (alice, "correct horse") with yaml added to server:, and the
// environment env.
func restartSettings(t *testing.T, yaml string, env map[string]string) *config.Config {
	t.Helper()
	dir := t.TempDir()
	hash, _ := bcrypt.GenerateFromPassword([]byte("correct horse"), bcrypt.MinCost)
	users := filepath.Join(dir, "users")
	if err := os.WriteFile(users, []byte("alice:"+string(hash)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := config.Parse([]byte("server:\n  access:\n    mode: users\n    users_file: "+users+"\n"+yaml), "loupe.yaml",
		func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// startWith starts a server on settings whose browser keeps its cookies in jar (cookies go to
// a host whatever its port, so every test server on 127.0.0.1 gets them).
func startWith(t *testing.T, settings *config.Config, jar http.CookieJar) *oauthEnv {
	e := newOAuthEnv(t, 2*time.Second, settings)
	e.c = &http.Client{Jar: jar}
	return e
}

// stop stops e's server as a restart would: its listener, then its stores.
func (e *oauthEnv) stop() {
	e.ts.Close()
	if err := e.srv.Close(); err != nil {
		e.t.Fatal(err)
	}
}

// signedIn reads /oauth/status?api=script as the browser: whether the request got past the
// login and whether the script grant is there.
func (e *oauthEnv) signedIn() (loggedIn, granted bool) {
	e.t.Helper()
	code, at, body := e.do("GET", "/oauth/status?api=script", nil)
	loggedIn = code == 200 && !strings.Contains(at, "/login")
	return loggedIn, loggedIn && strings.Contains(body, `"signedIn":true`)
}

// TestRestartKeepsLoginAndGrant: with a data directory, a restart logs nobody out and signs
// nobody out of the script sandbox: the same session cookie, the same grant, whose access
// token the sandbox still accepts and whose refresh still works; a logout before a restart
// holds after it.
func TestRestartKeepsLoginAndGrant(t *testing.T) {
	data := t.TempDir()
	settings := restartSettings(t, "  data_dir: "+data+"\n", nil)
	jar, _ := cookiejar.New(nil)
	get := "/proxy/script/v1/projects/" + script.SeedScriptID

	first := startWith(t, settings, jar)
	if code, at, body := first.do("POST", "/login", url.Values{"name": {"alice"}, "password": {"correct horse"}, "next": {"/"}}); code != 200 || strings.Contains(at, "/login") {
		t.Fatalf("login: got %d at %s: %.200s", code, at, body)
	}
	if code, at, body := first.signIn("allow", scopeProject, scopeEmail); code != 200 || !strings.HasSuffix(at, "/script/projects.get") {
		t.Fatalf("sign-in: got %d at %s: %.300s", code, at, body)
	}
	if code, _, body := first.do("GET", get, nil); code != 200 {
		t.Fatalf("a call with the grant: got %d %s", code, body)
	}
	before := first.grantTokens()
	if fi, err := os.Stat(filepath.Join(data, "secret-key")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the secret key file: got %v, %v; want one of mode 0600 in the data directory", fi, err)
	}
	raw, _ := os.ReadFile(filepath.Join(data, "server.db"))
	for _, tok := range before {
		if strings.Contains(string(raw), tok) {
			t.Errorf("server.db holds a token in the clear")
		}
	}
	first.stop()

	second := startWith(t, settings, jar)
	if loggedIn, granted := second.signedIn(); !loggedIn || !granted {
		t.Fatalf("after a restart: got logged in %v, signed in to the script API %v; want both", loggedIn, granted)
	}
	if code, _, body := second.do("GET", get, nil); code != 200 {
		t.Fatalf("a call after the restart: got %d %s; want 200 with the same grant", code, body)
	}
	// The same grant: its refresh token (the sandbox's do not rotate) is the one from before.
	// (Its access token too, unless the restart took longer than its two seconds.)
	if after := second.grantTokens(); !slices.ContainsFunc(after, func(v string) bool { return slices.Contains(before, v) && strings.HasPrefix(v, "sandbox-rt.") }) {
		t.Errorf("the grant after the restart is not the one from before it")
	}
	time.Sleep(2100 * time.Millisecond) // the access token expires: the grant is renewed
	if code, _, body := second.do("GET", get, nil); code != 200 {
		t.Fatalf("a call past the access token's life: got %d %s; want 200 with a renewed token", code, body)
	}
	renewed := second.grantTokens()
	if !slices.ContainsFunc(renewed, func(v string) bool { return strings.HasPrefix(v, "sandbox-at.") && !slices.Contains(before, v) }) {
		t.Errorf("got tokens %d; want a new access token after the renewal", len(renewed))
	}
	if code, _, _ := second.do("POST", "/logout", url.Values{}); code != 200 {
		t.Errorf("logout: got %d; want the login page", code)
	}
	second.stop()

	third := startWith(t, settings, jar)
	if loggedIn, _ := third.signedIn(); loggedIn {
		t.Error("after a logout and a restart: got logged in; want the session ended for good")
	}
	third.noTokenShown(map[string]bool{})
}

// TestSameSecretKeySharesCookies: two servers given the same LOUPE_SECRET_KEY (two replicas)
// finish each other's sign-ins: the state cookie one sealed opens on the other, and so does the
// consent form of its script sandbox. (Another key is refused: server/internal/seal and the
// script sandbox's tests.)
func TestSameSecretKeySharesCookies(t *testing.T) {
	const key = "replicas-share-this-key-0123456789abcdef"
	jar, _ := cookiejar.New(nil)
	// Access mode none: login sessions are not shared without a shared database.
	settings, err := config.Parse(nil, "", func(name string) (string, bool) { return key, name == "LOUPE_SECRET_KEY" })
	if err != nil {
		t.Fatal(err)
	}
	a, b := startWith(t, settings, jar), startWith(t, settings, jar)
	// The sign-in starts on a, whose script sandbox shows the consent page.
	q := url.Values{"api": {"script"}, "scope": {scopeRO}, "return": {"/script"}}
	code, at, body := a.do("GET", "/oauth/start?"+q.Encode(), nil)
	m := consentRequest.FindStringSubmatch(body)
	if code != 200 || m == nil {
		t.Fatalf("start on a: got %d at %s", code, at)
	}
	// The consent is answered on b (b's sandbox opens a's form), and the provider's redirect
	// is followed to b's callback (b opens a's state cookie). The code is b's sandbox's, kept
	// in its memory for the minute it lives.
	noFollow := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noFollow.PostForm(strings.Replace(at, a.ts.URL, b.ts.URL, 1), url.Values{"request": {m[1]}, "decision": {"allow"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc := res.Header.Get("Location")
	if res.StatusCode != http.StatusFound || !strings.HasPrefix(loc, a.ts.URL+"/oauth/callback?") {
		t.Fatalf("consent on b: got %d to %q; want 302 to the callback", res.StatusCode, loc)
	}
	if code, at, body := b.do("GET", strings.Replace(loc, a.ts.URL, b.ts.URL, 1), nil); code != 200 || !strings.HasSuffix(at, "/script") {
		t.Fatalf("callback on b: got %d at %s: %.300s; want back at /script", code, at, body)
	}
	if _, granted := b.signedIn(); !granted {
		t.Errorf("after a sign-in started on a and finished on b: b has no grant; want one")
	}
}
