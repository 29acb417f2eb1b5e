package config

import (
	"fmt"
	"net/url"
	"os"
	"strings"
)

// The client the script sandbox's own authorization server knows (server/sandbox/script:
// SandboxClientID, SandboxClientSecret), which the default configuration signs in with.
const (
	SandboxClientID     = "loupe-sandbox-client"
	SandboxClientSecret = "loupe-sandbox-secret"
)

// The script sandbox's authorization server, relative to Loupe's own origin: the browser
// opens SandboxAuthURL at the address it reaches Loupe at, and the server reaches the others
// over its in-memory sandbox transport.
const (
	SandboxAuthURL     = "/sandbox/script/oauth/authorize"
	SandboxTokenURL    = "/sandbox/script/oauth/token"
	SandboxRevokeURL   = "/sandbox/script/oauth/revoke"
	SandboxUserinfoURL = "/sandbox/script/oauth/userinfo"
)

// OAuth2 is the OAuth 2.0 client of a credential with send: oauth2. Each Loupe user signs in
// (authorization code with PKCE, server/oauth) and the proxy sends their access token as
// "Authorization: Bearer"; while a user has not signed in, the credential's own secret, if
// any, is sent as the query parameter Name (default key), the API's apiKey alternative.
//
// For the script API's built-in sandbox every field defaults to its own authorization server
// and client, so send: oauth2 needs nothing else; for a real API ClientID, ClientSecret,
// AuthURL and TokenURL are required.
type OAuth2 struct {
	// ClientID is the OAuth client's id, as the provider registered it.
	ClientID string `yaml:"client_id"`
	// ClientSecret is the client's secret: one of value, file or env, like a credential's.
	ClientSecret SecretSource `yaml:"client_secret"`
	// AuthURL is the provider's authorization endpoint, which the browser opens. A path such
	// as /sandbox/script/oauth/authorize is resolved against Loupe's own address (sandbox only).
	AuthURL string `yaml:"auth_url"`
	// TokenURL is the provider's token endpoint, which the server calls.
	TokenURL string `yaml:"token_url"`
	// RevokeURL is the provider's RFC 7009 revocation endpoint, called on Sign out. Empty:
	// Sign out only forgets the grant.
	RevokeURL string `yaml:"revoke_url"`
	// UserinfoURL answers who signed in ({"email": …}) for a token granted the
	// userinfo.email scope. Empty: the page shows no name.
	UserinfoURL string `yaml:"userinfo_url"`
	// Scopes are the scopes a user may ask for. Empty means every scope of the oauth2 scheme
	// in the API's OpenAPI document.
	Scopes []string `yaml:"scopes"`

	clientSecret string // resolved by resolveClient
}

// SecretSource is where a secret is read from: exactly one of Value, File and Env.
type SecretSource struct {
	// Value is the secret itself. Prefer File or Env.
	Value string `yaml:"value"`
	// File is a file holding the secret; surrounding white space is trimmed.
	File string `yaml:"file"`
	// Env is the name of an environment variable holding the secret.
	Env string `yaml:"env"`
}

// Secret returns the resolved client secret.
func (o *OAuth2) Secret() string { return o.clientSecret }

// IsOAuth2 reports whether the credential is sent as an OAuth 2.0 grant's access token.
func (c *Credential) IsOAuth2() bool { return c.Send == SendOAuth2 }

// applyOAuthDefaults makes the script sandbox use its own authorization server when nothing
// says otherwise, and fills the sandbox client of a send: oauth2 pointed at it.
func (a *API) applyOAuthDefaults(slug string) {
	c := &a.Credential
	sandboxAS := slug == "script" && a.IsSandbox()
	if sandboxAS && c.Send == "" {
		c.Send = SendOAuth2
	}
	if c.Send != SendOAuth2 {
		return
	}
	if c.Name == "" {
		c.Name = "key"
	}
	if !sandboxAS {
		return
	}
	o := &c.OAuth2
	fill := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	fill(&o.ClientID, SandboxClientID)
	if o.ClientSecret == (SecretSource{}) {
		o.ClientSecret.Value = SandboxClientSecret
	}
	fill(&o.AuthURL, SandboxAuthURL)
	fill(&o.TokenURL, SandboxTokenURL)
	fill(&o.RevokeURL, SandboxRevokeURL)
	fill(&o.UserinfoURL, SandboxUserinfoURL)
}

// validate checks an oauth2 client; key is apis.<slug>.credential, sandbox whether the API
// goes to its built-in sandbox (where paths on Loupe's own address are allowed).
func (o *OAuth2) validate(key string, sandbox bool) error {
	if strings.TrimSpace(o.ClientID) == "" {
		return errKey(key+".client_id", "expected the OAuth client id the provider gave you (send: oauth2)")
	}
	n := 0
	for _, s := range []string{o.ClientSecret.Value, o.ClientSecret.File, o.ClientSecret.Env} {
		if s != "" {
			n++
		}
	}
	if n != 1 {
		return errKey(key+".client_secret", "expected one of value, file or env (such as {env: SCRIPT_CLIENT_SECRET}), not %d of them", n)
	}
	for _, f := range []struct {
		name, v  string
		required bool
	}{{"auth_url", o.AuthURL, true}, {"token_url", o.TokenURL, true}, {"revoke_url", o.RevokeURL, false}, {"userinfo_url", o.UserinfoURL, false}} {
		if f.v == "" {
			if f.required {
				return errKey(key+"."+f.name, "expected the provider's endpoint, such as https://oauth2.googleapis.com/token (send: oauth2)")
			}
			continue
		}
		if err := checkEndpoint(f.v, sandbox); err != nil {
			return errKey(key+"."+f.name, "%v", err)
		}
	}
	for i, s := range o.Scopes {
		if s == "" || strings.ContainsAny(s, " \t\r\n\"\\") {
			return errKey(fmt.Sprintf("%s.scopes[%d]", key, i), "expected one scope without spaces, got %q", s)
		}
	}
	return nil
}

// checkEndpoint accepts an absolute http(s) URL, or for a sandbox a path on Loupe's address.
func checkEndpoint(v string, sandbox bool) error {
	u, err := url.Parse(v)
	switch {
	case err == nil && u.Scheme == "" && u.Host == "" && strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//"):
		if !sandbox {
			return fmt.Errorf("expected an absolute URL such as https://oauth2.googleapis.com/token; a path (%q) means Loupe's own sandbox, and this API has a base_url", v)
		}
		return nil
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return fmt.Errorf("expected an http or https URL such as https://oauth2.googleapis.com/token, got %q", redactURL(v))
	case u.User != nil || u.Fragment != "":
		return fmt.Errorf("expected no user:password@ or fragment in the URL, got %q", redactURL(v))
	}
	return nil
}

// resolveClient reads the client secret; key is apis.<slug>.credential.
func (o *OAuth2) resolveClient(key string, lookupEnv func(string) (string, bool)) error {
	s := o.ClientSecret
	k := key + ".client_secret"
	switch {
	case s.Value != "":
		o.clientSecret = s.Value
	case s.File != "":
		b, err := os.ReadFile(s.File)
		if err != nil {
			return fmt.Errorf("%s.file: reading the client secret: %w", k, err)
		}
		o.clientSecret = strings.TrimSpace(string(b))
	case s.Env != "":
		v, _ := lookupEnv(s.Env)
		o.clientSecret = strings.TrimSpace(v)
		if o.clientSecret == "" {
			return fmt.Errorf("%s.env: environment variable %s is unset or empty; expected the client secret", k, s.Env)
		}
	}
	if o.clientSecret == "" {
		return fmt.Errorf("%s: the client secret is empty", k)
	}
	if strings.ContainsAny(o.clientSecret, "\r\n\x00") {
		return fmt.Errorf("%s: the client secret contains a line break or NUL; expected one line", k)
	}
	return nil
}

// sensitive lists the client secret of an oauth2 credential, for the proxy's masker.
func (o *OAuth2) sensitive(send string) []string {
	if send != SendOAuth2 || o.clientSecret == "" {
		return nil
	}
	return []string{o.clientSecret}
}
