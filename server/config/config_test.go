package config

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func noEnv(string) (string, bool) { return "", false }

func envMap(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestExampleIsValid(t *testing.T) {
	data, err := os.ReadFile("loupe.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	os.WriteFile(secret, []byte("s3cret\n"), 0o600)
	text := strings.ReplaceAll(string(data), "/run/secrets/kgsearch-key", secret)
	text = strings.ReplaceAll(text, "/run/secrets/opensearch", secret)
	c, err := Parse([]byte(text), "loupe.example.yaml", envMap(map[string]string{"V0_API_KEY": "v0key"}))
	if err != nil {
		t.Fatalf("example: %v", err)
	}
	if got, want := c.APIs["chat"].Credential.Secret(), "v0key"; got != want {
		t.Errorf("chat secret: got %q; want %q", got, want)
	}
	if got, want := c.APIs["entities"].Credential.Secret(), "s3cret"; got != want {
		t.Errorf("entities secret: got %q; want %q", got, want)
	}
}

func TestDefaults(t *testing.T) {
	c, err := Parse(nil, "", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.Server.Addr, "127.0.0.1:8080"; got != want {
		t.Errorf("addr: got %q; want %q", got, want)
	}
	if sb := c.Server.Sandbox; c.Server.DataDir != "" || sb.IdleTimeout != 30*time.Minute || sb.MaxSessions != 1000 || sb.MaxBytes != 4<<20 || sb.ChatTokensPerSecond != 40 {
		t.Errorf("sandbox: got data_dir %q, %+v; want none, 30m, 1000 sessions, 4 MiB, 40 tokens/s", c.Server.DataDir, sb)
	}
	for _, slug := range BuiltIn() {
		a := c.APIs[slug]
		if !a.IsSandbox() {
			t.Errorf("%s: got base_url %q; want the sandbox", slug, a.BaseURL)
		}
		if got, want := a.Credential.Secret(), SandboxKey; got != want {
			t.Errorf("%s secret: got %q; want %q", slug, got, want)
		}
	}
}

// TestOwnAPI checks an API added by configuration: its document's path is kept and checked,
// its environment variables apply, and without a base_url it goes to the sandbox built from its
// document (with the sandbox credential) unless sandbox: false.
func TestOwnAPI(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "pets.yaml")
	os.WriteFile(doc, []byte("openapi: 3.0.3\n"), 0o600)
	file := "apis:\n  pets:\n    openapi: " + doc + "\n"
	c, err := Parse([]byte(file), "f.yaml", envMap(map[string]string{"LOUPE_PETS_URL": "https://pets.example/v1", "LOUPE_PETS_KEY": "k"}))
	if err != nil {
		t.Fatal(err)
	}
	a := c.APIs["pets"]
	if got, want := a.BaseURL, "https://pets.example/v1"; got != want {
		t.Errorf("base_url: got %q; want %q", got, want)
	}
	if got, want := a.Credential.Secret(), "k"; got != want {
		t.Errorf("secret: got %q; want %q", got, want)
	}
	if got, want := c.Documents()["pets"], doc; got != want {
		t.Errorf("documents: got %q; want %q", got, want)
	}
	if !slicesContains(c.Files(), doc) {
		t.Errorf("files: got %q; want the document watched", c.Files())
	}
	c, err = Parse([]byte(file), "f.yaml", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if a := c.APIs["pets"]; !a.IsOwnSandbox() || a.Credential.Secret() != SandboxKey {
		t.Errorf("without base_url: got sandbox %v, secret %q; want its sandbox and the sandbox key", a.IsOwnSandbox(), a.Credential.Secret())
	}
	c, err = Parse([]byte(file+"    sandbox: false\n"), "f.yaml", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if a := c.APIs["pets"]; a.IsSandbox() || a.Credential.Secret() != "" {
		t.Errorf("sandbox: false: got sandbox %v, secret %q; want no sandbox and no secret", a.IsSandbox(), a.Credential.Secret())
	}
	c, err = Parse([]byte(file+"    sandbox_hints:\n      resources: [{collection: /pets, id: petId}]\n"), "f.yaml", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.APIs["pets"].SandboxHints["resources"]; got == nil {
		t.Errorf("sandbox_hints: got %v; want the resources kept", c.APIs["pets"].SandboxHints)
	}
	for _, tt := range []struct{ yaml, want string }{
		{file + "    sandbox: true\n    base_url: https://p.example\n", "apis.pets.sandbox: true, but base_url is set"},
		{"apis:\n  chat:\n    sandbox: false\n", "apis.chat.sandbox: only an API of your own"},
		{file + "    sandbox: maybe\n", "apis.pets.sandbox: expected true or false"},
	} {
		if _, err := Parse([]byte(tt.yaml), "f.yaml", noEnv); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: got %v; want an error containing %q", tt.yaml, err, tt.want)
		}
	}
}

func slicesContains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestEnvOverrides(t *testing.T) {
	file := "apis:\n  chat:\n    base_url: https://a.example\n    credential:\n      value: fromfile\n"
	c, err := Parse([]byte(file), "f.yaml", envMap(map[string]string{
		"LOUPE_CHAT_URL": "https://b.example", "LOUPE_CHAT_KEY": "fromenv", "LOUPE_ADDR": "127.0.0.1:9999",
		"LOUPE_ENTITIES_ALLOW": "search, other", "LOUPE_DATA_DIR": "/var/lib/loupe",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.APIs["chat"].BaseURL, "https://b.example"; got != want {
		t.Errorf("base_url: got %q; want %q", got, want)
	}
	if got, want := c.APIs["chat"].Credential.Secret(), "fromenv"; got != want {
		t.Errorf("secret: got %q; want %q", got, want)
	}
	if got, want := c.Server.Addr, "127.0.0.1:9999"; got != want {
		t.Errorf("addr: got %q; want %q", got, want)
	}
	if got, want := strings.Join(c.APIs["entities"].Allow, "|"), "search|other"; got != want {
		t.Errorf("allow: got %q; want %q", got, want)
	}
	if got, want := c.Server.DataDir, "/var/lib/loupe"; got != want {
		t.Errorf("data_dir: got %q; want %q", got, want)
	}
}

// TestErrorsNameTheKey checks that every invalid configuration stops with the key's name.
func TestErrorsNameTheKey(t *testing.T) {
	tests := []struct {
		name, yaml string
		env        map[string]string
		want       string
	}{
		{"unknown top key", "serve:\n  addr: x\n", nil, "line 1: unknown key serve"},
		{"unknown nested key", "server:\n  access:\n    mood: users\n", nil, "line 3: unknown key server.access.mood"},
		{"unknown api key", "apis:\n  chat:\n    baseurl: x\n", nil, "unknown key apis.chat.baseurl"},
		{"unknown api", "apis:\n  weather: {}\n", nil, "apis.weather: unknown API; expected a built-in API (chat, cluster, docs, entities, pagination, reports, script), or your own with its OpenAPI document under apis.weather.openapi"},
		{"own api, missing document", "apis:\n  weather:\n    openapi: /nonexistent/w.yaml\n", nil, "apis.weather.openapi: expected the path of an OpenAPI 3.0 or 3.1 document (YAML or JSON): stat /nonexistent/w.yaml: no such file"},
		{"own api, folder", "apis:\n  weather:\n    openapi: /tmp\n", nil, "apis.weather.openapi: /tmp is a folder"},
		{"own api, bad slug", "apis:\n  My_API:\n    openapi: x.yaml\n", nil, "apis.My_API: expected a slug of lower-case letters and digits"},
		{"own api, reserved slug", "apis:\n  proxy:\n    openapi: x.yaml\n", nil, "apis.proxy: \"proxy\" is one of Loupe's own paths"},
		{"built-in with a document", "apis:\n  chat:\n    openapi: x.yaml\n", nil, "apis.chat.openapi: chat is a built-in API with its own document"},
		{"bad duration", "server:\n  limits:\n    upstream_timeout: soon\n", nil, "server.limits.upstream_timeout: expected a duration"},
		{"bad number", "server:\n  limits:\n    rate: fast\n", nil, "server.limits.rate: expected a number"},
		{"bad list", "apis:\n  chat:\n    allow: x\n", nil, "apis.chat.allow: expected a list"},
		{"bad addr", "server:\n  addr: localhost\n", nil, "server.addr: expected host:port"},
		{"bad public url", "server:\n  public_url: loupe.example.com\n", nil, "server.public_url: expected an http or https URL"},
		{"bad mode", "server:\n  access:\n    mode: open\n", nil, "server.access.mode: expected none, users or header"},
		{"users without file", "server:\n  access:\n    mode: users\n", nil, "server.access.users_file: expected the path"},
		{"header without proxies", "server:\n  access:\n    mode: header\n", nil, "server.access.trusted_proxies: expected"},
		{"bad proxy", "server:\n  access:\n    mode: header\n    trusted_proxies: [nope]\n", nil, "server.access.trusted_proxies[0]: expected an IP"},
		{"bad base url", "apis:\n  chat:\n    base_url: ftp://x\n", nil, "apis.chat.base_url: expected an http or https URL"},
		{"userinfo base url", "apis:\n  chat:\n    base_url: https://u:p@x\n    credential: {value: k}\n", nil, "apis.chat.base_url: expected no user:password@"},
		{"query base url", "apis:\n  chat:\n    base_url: https://x/?a=b\n", nil, "apis.chat.base_url: expected no query"},
		{"two sources", "apis:\n  chat:\n    credential: {value: a, env: B}\n", nil, "apis.chat.credential: expected one of value, file or env"},
		{"bad send", "apis:\n  chat:\n    credential: {send: pigeon}\n", nil, "apis.chat.credential.send: expected bearer, header, basic, query, cookie, oauth2 or none"},
		{"cookie without name", "apis:\n  chat:\n    credential: {send: cookie}\n", nil, "apis.chat.credential.name: expected a cookie name"},
		{"bad header name", "apis:\n  cluster:\n    credential: {send: header, name: \"X Key\"}\n", nil, "apis.cluster.credential.name: expected a header name"},
		{"reserved header", "apis:\n  cluster:\n    credential: {send: header, name: Cookie}\n", nil, "apis.cluster.credential.name"},
		{"real api without key", "apis:\n  chat:\n    base_url: https://api.v0.dev\n    credential: {send: bearer}\n", nil, "apis.chat.credential: the API at https://api.v0.dev is sent a credential (bearer) but none is given"},
		{"missing env", "apis:\n  chat:\n    credential: {env: NOPE}\n", nil, "apis.chat.credential.env: environment variable NOPE is unset"},
		{"missing file", "apis:\n  chat:\n    credential: {file: /nonexistent/k}\n", nil, "apis.chat.credential.file: reading the credential"},
		{"basic without colon", "apis:\n  cluster:\n    credential: {send: basic, value: k}\n", nil, "apis.cluster.credential: send: basic expects the secret as user:password"},
		{"bad allow", "apis:\n  chat:\n    allow: [\"a b\"]\n", nil, "apis.chat.allow[0]: expected an operationId"},
		{"open with real credential", "server:\n  addr: 0.0.0.0:8080\napis:\n  chat:\n    base_url: https://api.v0.dev\n    credential: {value: k}\n", nil,
			"server.access.mode: listening on 0.0.0.0:8080 (not loopback) with real credentials configured (apis.chat) needs an access mode"},
		{"env mode", "", map[string]string{"LOUPE_ACCESS_MODE": "everyone"}, "server.access.mode: expected none, users or header, got \"everyone\""},
		{"zero burst", "server:\n  limits:\n    burst: -1\n", nil, "server.limits.burst: expected at least 1"},
		{"negative idle", "server:\n  sandbox:\n    idle_timeout: -1s\n", nil, "server.sandbox.idle_timeout: expected a positive duration"},
		{"negative sessions", "server:\n  sandbox:\n    max_sessions: -5\n", nil, "server.sandbox.max_sessions: expected a positive number"},
		{"negative bytes", "server:\n  sandbox:\n    max_bytes: -1\n", nil, "server.sandbox.max_bytes: expected a positive number of bytes"},
		{"unknown sandbox key", "server:\n  sandbox:\n    max_users: 5\n", nil, "unknown key server.sandbox.max_users; expected one of: idle_timeout, max_sessions, max_sessions_per_client, max_total_bytes, max_bytes, chat_tokens_per_second"},
		{"negative chat pace", "server:\n  sandbox:\n    chat_tokens_per_second: -1\n", nil, "server.sandbox.chat_tokens_per_second: expected a positive number of tokens per second, got -1"},
		{"endless chat pace", "server:\n  sandbox:\n    chat_tokens_per_second: .inf\n", nil, "server.sandbox.chat_tokens_per_second: expected a positive number of tokens per second, got +Inf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.yaml), "loupe.yaml", envMap(tt.env))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v; want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestOpenAddressWithSandboxesOnly(t *testing.T) {
	if _, err := Parse([]byte("server:\n  addr: 0.0.0.0:8080\n"), "f", noEnv); err != nil {
		t.Errorf("sandbox-only config on 0.0.0.0: got %v; want no error", err)
	}
}

func TestSensitiveForms(t *testing.T) {
	c := Credential{Send: SendBasic, Value: "user:p@ss word"}
	if err := c.resolve("k", false, noEnv); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(c.Sensitive(), "|")
	want := "user:p@ss word|user%3Ap%40ss+word|dXNlcjpwQHNzIHdvcmQ="
	if got != want {
		t.Errorf("got %q; want %q", got, want)
	}
}

func TestWatchSeesAChangedFile(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "key")
	os.WriteFile(f, []byte("one"), 0o600)
	changed := make(chan struct{}, 4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go Watch(ctx, 20*time.Millisecond, func() []string { return []string{f} }, func() { changed <- struct{}{} })
	time.Sleep(60 * time.Millisecond)
	select {
	case <-changed:
		t.Fatal("a change reported before any")
	default:
	}
	os.WriteFile(f, []byte("second"), 0o600) // a new size, whatever the clock's resolution
	select {
	case <-changed:
	case <-time.After(2 * time.Second):
		t.Fatal("the change was not seen")
	}
}
