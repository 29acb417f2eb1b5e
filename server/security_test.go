package server

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"loupe/server/access"
	"loupe/server/config"
)

// syncBuffer collects log lines from concurrent handlers.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serve starts a Server on the configuration read from yamlText (with env), on loopback.
func serve(t *testing.T, yamlText string, env map[string]string) (*Server, *httptest.Server, *syncBuffer) {
	t.Helper()
	return serveConfig(t, yamlText, env, Config{})
}

// serveConfig is serve with cfg's other fields (a clock, timeouts) set.
func serveConfig(t *testing.T, yamlText string, env map[string]string, cfg Config) (*Server, *httptest.Server, *syncBuffer) {
	t.Helper()
	settings, err := config.Parse([]byte(yamlText), "test.yaml", func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	logs := &syncBuffer{}
	cfg.Settings, cfg.Logger = settings, slog.New(slog.NewTextHandler(logs, nil))
	srv, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ts.Close(); srv.Close() })
	return srv, ts, logs
}

func get(t *testing.T, c *http.Client, u string, header http.Header) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestDefaultConfigurationWorksOutOfTheBox(t *testing.T) {
	_, ts, logs := serve(t, "", nil)
	resp, body := get(t, ts.Client(), ts.URL+"/proxy/entities/v1/entities:search?query=paris&limit=1", nil)
	if resp.StatusCode != 200 || !strings.Contains(body, "Paris") {
		t.Fatalf("through the proxy: got %d %.200s; want Paris", resp.StatusCode, body)
	}
	// The sandbox itself wants its key, as the real API does.
	if resp, _ := get(t, ts.Client(), ts.URL+"/sandbox/entities/v1/entities:search?query=paris", nil); resp.StatusCode != 403 {
		t.Errorf("sandbox without a key: got %d; want 403", resp.StatusCode)
	}
	if resp, _ := get(t, ts.Client(), ts.URL+"/sandbox/entities/v1/entities:search?query=paris&key=wrong", nil); resp.StatusCode != 400 {
		t.Errorf("sandbox with a wrong key: got %d; want 400", resp.StatusCode)
	}
	if strings.Contains(logs.String(), config.SandboxKey) {
		t.Errorf("the log holds the sandbox key:\n%s", logs.String())
	}
	for _, want := range []string{"msg=\"proxy call\" user=local api=entities operation=", "msg=request method=GET path=/proxy/entities/v1/entities:search status=200"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log: got\n%s\nwant a line with %q", logs.String(), want)
		}
	}
}

func TestSecurityHeaders(t *testing.T) {
	_, ts, _ := serve(t, "", nil)
	tests := []struct{ path, csp string }{
		{"/", access.AppCSP},
		{"/entities", access.AppCSP},
		{"/preview", access.PreviewCSP},
		{"/proxy/entities/v1/entities:search?query=x", access.DataCSP},
		{"/sandbox/entities/v1/entities:search", access.DataCSP},
		{"/catalog.json", access.DataCSP},
	}
	for _, tt := range tests {
		resp, _ := get(t, ts.Client(), ts.URL+tt.path, nil)
		if got := resp.Header.Values("Content-Security-Policy"); len(got) != 1 || got[0] != tt.csp {
			t.Errorf("%s: got CSP %q; want %q", tt.path, got, tt.csp)
		}
		for name, want := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"} {
			if got := resp.Header.Values(name); len(got) != 1 || got[0] != want {
				t.Errorf("%s: got %s %q; want %q once", tt.path, name, got, want)
			}
		}
	}
	_, page := get(t, ts.Client(), ts.URL+"/", nil)
	if strings.Contains(page, "<script>") || strings.Contains(page, "<style") {
		t.Errorf("the page has an inline script or style, which AppCSP blocks")
	}
}

// TestReloadRotatesTheKey rotates a real API's key file and reloads: the next call carries
// the new key, and neither key reaches the browser or the logs.
func TestReloadRotatesTheKey(t *testing.T) {
	var mu sync.Mutex
	var seen string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = r.Header.Get("Authorization")
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"echo":%q}`, r.Header.Get("Authorization"))
	}))
	defer up.Close()
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "chat.key")
	os.WriteFile(keyFile, []byte("first-SECRET-key\n"), 0o600)
	cfgFile := filepath.Join(dir, "loupe.yaml")
	os.WriteFile(cfgFile, []byte("apis:\n  chat:\n    base_url: "+up.URL+"\n    credential:\n      file: "+keyFile+"\n"), 0o600)

	settings, err := config.Load(cfgFile)
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	srv, err := New(Config{Settings: settings, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := httptest.NewServer(srv)
	defer ts.Close()
	call := func() string {
		req, _ := http.NewRequest("POST", ts.URL+"/proxy/chat/v1/chat/completions", strings.NewReader("{}"))
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		mu.Lock()
		defer mu.Unlock()
		return seen + " | " + string(b)
	}
	if got := call(); !strings.HasPrefix(got, "Bearer first-SECRET-key | ") || strings.Contains(got[20:], "first-SECRET") {
		t.Fatalf("before: got %q; want the first key upstream, masked in the answer", got)
	}
	os.WriteFile(keyFile, []byte("second-SECRET-key\n"), 0o600)
	next, err := config.Load(cfgFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Reload(next); err != nil {
		t.Fatal(err)
	}
	if got := call(); !strings.HasPrefix(got, "Bearer second-SECRET-key | ") || strings.Contains(got[20:], "SECRET") {
		t.Errorf("after: got %q; want the second key upstream, masked in the answer", got)
	}
	if strings.Contains(logs.String(), "SECRET") {
		t.Errorf("the log holds a key:\n%s", logs.String())
	}
}

func TestConfigNamingAnUnknownOperation(t *testing.T) {
	settings, err := config.Parse([]byte("apis:\n  entities:\n    allow: [entities.serch]\n"), "f.yaml", func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(Config{Settings: settings})
	if err == nil || !strings.Contains(err.Error(), `apis.entities.allow[0]: "entities.serch" is not an operation of entities`) {
		t.Errorf("got %v; want an error naming apis.entities.allow[0]", err)
	}
}

func TestUsersFileMode(t *testing.T) {
	dir := t.TempDir()
	hash, _ := bcrypt.GenerateFromPassword([]byte("correct horse"), bcrypt.MinCost)
	users := filepath.Join(dir, "users")
	os.WriteFile(users, []byte("# Loupe users\nalice:"+string(hash)+"\n"), 0o600)
	_, ts, _ := serve(t, "server:\n  access:\n    mode: users\n    users_file: "+users+"\n", nil)
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	resp, _ := get(t, noFollow, ts.URL+"/entities", nil)
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login?next=") {
		t.Errorf("anonymous page: got %d %q; want a redirect to /login", resp.StatusCode, resp.Header.Get("Location"))
	}
	for _, p := range []string{"/proxy/entities/v1/entities:search?query=x", "/sandbox/entities/v1/entities:search?key=loupe-sandbox-key", "/catalog.json"} {
		if resp, body := get(t, noFollow, ts.URL+p, nil); resp.StatusCode != 401 || !strings.Contains(body, "log in") {
			t.Errorf("anonymous %s: got %d %s; want 401 JSON", p, resp.StatusCode, body)
		}
	}
	if resp, body := get(t, noFollow, ts.URL+"/login", nil); resp.StatusCode != 200 || !strings.Contains(body, `<form id="login"`) {
		t.Errorf("login page: got %d", resp.StatusCode)
	}
	if resp, _ := get(t, noFollow, ts.URL+"/healthz", nil); resp.StatusCode != 200 {
		t.Errorf("healthz: got %d; want 200 without login", resp.StatusCode)
	}

	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: noFollow.CheckRedirect}
	post := func(name, pass string) *http.Response {
		resp, err := c.PostForm(ts.URL+"/login", url.Values{"name": {name}, "password": {pass}, "next": {"//evil.example/"}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if resp := post("alice", "wrong"); resp.StatusCode != 401 {
		t.Errorf("wrong password: got %d; want 401", resp.StatusCode)
	}
	if resp := post("mallory", "correct horse"); resp.StatusCode != 401 {
		t.Errorf("unknown user: got %d; want 401", resp.StatusCode)
	}
	resp = post("alice", "correct horse")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Fatalf("login: got %d %q; want a redirect to / (never to another site)", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp, body := get(t, c, ts.URL+"/proxy/entities/v1/entities:search?query=paris&limit=1", nil); resp.StatusCode != 200 {
		t.Errorf("logged in: got %d %s; want 200", resp.StatusCode, body)
	}
	// A login from another site is refused.
	req, _ := http.NewRequest("POST", ts.URL+"/login", strings.NewReader("name=alice&password=correct+horse"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	if resp, err := noFollow.Do(req); err != nil || resp.StatusCode != 403 {
		t.Errorf("cross-origin login: got %v %v; want 403", resp.StatusCode, err)
	}
}

func TestTrustedHeaderMode(t *testing.T) {
	tests := []struct {
		name    string
		proxies string
		header  http.Header
		want    int
	}{
		{"from the trusted proxy", "[127.0.0.1]", http.Header{"X-Forwarded-User": {"alice@example.com"}}, 200},
		{"from the trusted proxy, no user", "[127.0.0.1]", nil, 401},
		{"from elsewhere", "[10.9.9.9]", http.Header{"X-Forwarded-User": {"alice@example.com"}}, 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ts, logs := serve(t, "server:\n  access:\n    mode: header\n    trusted_proxies: "+tt.proxies+"\n", nil)
			resp, body := get(t, ts.Client(), ts.URL+"/proxy/entities/v1/entities:search?query=paris&limit=1", tt.header)
			if resp.StatusCode != tt.want {
				t.Fatalf("got %d %s; want %d", resp.StatusCode, body, tt.want)
			}
			if tt.want == 200 && !strings.Contains(logs.String(), "user=alice@example.com") {
				t.Errorf("audit: got\n%s\nwant the user named", logs.String())
			}
		})
	}
}

// TestExampleConfiguration starts a server on server/config/loupe.example.yaml, so the
// operations it names stay those of the catalog.
func TestExampleConfiguration(t *testing.T) {
	data, err := os.ReadFile("config/loupe.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("example-SECRET\n"), 0o600)
	text := strings.NewReplacer("/run/secrets/kgsearch-key", secret, "/run/secrets/opensearch", secret).Replace(string(data))
	settings, err := config.Parse([]byte(text), "loupe.example.yaml", func(k string) (string, bool) { return "v0-SECRET", k == "V0_API_KEY" })
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{Settings: settings})
	if err != nil {
		t.Fatalf("New on the example: %v", err)
	}
	srv.Close()
}
