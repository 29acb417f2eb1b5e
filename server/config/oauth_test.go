package config

import (
	"slices"
	"strings"
	"testing"
)

func TestScriptSandboxSignsInByDefault(t *testing.T) {
	c, err := Parse(nil, "", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	cr := c.APIs["script"].Credential
	got := []string{cr.Send, cr.ClientID, cr.OAuth2.Secret(), cr.AuthURL, cr.TokenURL, cr.RevokeURL, cr.UserinfoURL, cr.Secret(), cr.Name}
	want := []string{SendOAuth2, SandboxClientID, SandboxClientSecret, SandboxAuthURL, SandboxTokenURL, SandboxRevokeURL, SandboxUserinfoURL, SandboxKey, "key"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q; want %q", got, want)
	}
	if !slices.Contains(cr.Sensitive(), SandboxClientSecret) {
		t.Errorf("Sensitive() = %q; want the client secret among them", cr.Sensitive())
	}
	// A real script API with a token in a file leaves send to the document (server/apis.go
	// places it: script.yaml's first scheme is oauth2, so a bearer token).
	c, err = Parse([]byte("apis:\n  script:\n    base_url: https://script.googleapis.com\n    credential: {value: tok}\n"), "f", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.APIs["script"].Credential.Send; got != "" {
		t.Errorf("real script without send: got %q; want it unset (the document decides)", got)
	}
}

func TestOAuth2Real(t *testing.T) {
	yaml := `apis:
  script:
    base_url: https://script.googleapis.com
    credential:
      send: oauth2
      client_id: 123.apps.googleusercontent.com
      client_secret: {env: SCRIPT_SECRET}
      auth_url: https://accounts.google.com/o/oauth2/v2/auth
      token_url: https://oauth2.googleapis.com/token
      scopes: [https://www.googleapis.com/auth/script.projects]
`
	c, err := Parse([]byte(yaml), "f", envMap(map[string]string{"SCRIPT_SECRET": "s3cret"}))
	if err != nil {
		t.Fatal(err)
	}
	cr := c.APIs["script"].Credential
	if got, want := cr.OAuth2.Secret(), "s3cret"; got != want {
		t.Errorf("client secret: got %q; want %q", got, want)
	}
	if cr.Secret() != "" || cr.Apply() != nil {
		t.Errorf("no API key given: got secret %q; want none sent before sign-in", cr.Secret())
	}
	if got := c.RealCredentials(); !slices.Equal(got, []string{"apis.script"}) {
		t.Errorf("RealCredentials: got %q; want [apis.script]", got)
	}
}

func TestOAuth2Errors(t *testing.T) {
	real := "apis:\n  script:\n    base_url: https://script.googleapis.com\n    credential:\n      send: oauth2\n"
	tests := []struct {
		name, yaml string
		env        map[string]string
		want       string
	}{
		{"no client id", real, nil, "apis.script.credential.client_id: expected the OAuth client id"},
		{"no client secret", real + "      client_id: a\n", nil, "apis.script.credential.client_secret: expected one of value, file or env"},
		{"no token url", real + "      client_id: a\n      client_secret: {value: s}\n      auth_url: https://a.example/auth\n", nil, "apis.script.credential.token_url: expected the provider's endpoint"},
		{"relative url for a real API", real + "      client_id: a\n      client_secret: {value: s}\n      auth_url: /sandbox/script/oauth/authorize\n      token_url: https://a.example/t\n", nil,
			"apis.script.credential.auth_url: expected an absolute URL"},
		{"bad url", "apis:\n  script:\n    credential: {send: oauth2, token_url: \"ftp://x\"}\n", nil, "apis.script.credential.token_url: expected an http or https URL"},
		{"bad scope", "apis:\n  script:\n    credential: {send: oauth2, scopes: [\"a b\"]}\n", nil, "apis.script.credential.scopes[0]: expected one scope without spaces"},
		{"unset secret env", "apis:\n  script:\n    credential: {send: oauth2, client_secret: {env: NOPE}}\n", nil, "apis.script.credential.client_secret.env: environment variable NOPE is unset"},
		{"unknown key", "apis:\n  script:\n    credential: {send: oauth2, client_key: x}\n", nil, "unknown key apis.script.credential.client_key; expected one of: value, file, env, send, name, prefix, client_id"},
		{"open with oauth", "server:\n  addr: 0.0.0.0:8080\n" + real + "      client_id: a\n      client_secret: {value: s}\n      auth_url: https://a.example/a\n      token_url: https://a.example/t\n", nil,
			"server.access.mode: listening on 0.0.0.0:8080 (not loopback) with real credentials configured (apis.script)"},
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
