package config

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"

	"loupe/server/config/placement"
)

// SandboxKey is the credential every built-in sandbox accepts unless configured otherwise, and
// the one the default configuration sends (it equals sandbox.DefaultKey). It guards nothing.
const SandboxKey = "loupe-sandbox-key"

// How a credential is sent (Credential.Send): the values of package placement, and oauth2.
const (
	// SendBearer sends "Authorization: Bearer <secret>".
	SendBearer = placement.Bearer
	// SendHeader sends "<Name>: <Prefix><secret>"; Name defaults to Authorization.
	SendHeader = placement.Header
	// SendBasic sends "Authorization: Basic base64(<secret>)"; the secret is "user:password".
	SendBasic = placement.Basic
	// SendQuery adds the query parameter Name=<secret>.
	SendQuery = placement.Query
	// SendCookie sends the cookie Name=<secret> ("Cookie: <Name>=<secret>"), as an OpenAPI
	// apiKey in: cookie says.
	SendCookie = placement.Cookie
	// SendNone sends nothing.
	SendNone = placement.None
	// SendOAuth2 sends "Authorization: Bearer <token>" with the access token of the calling
	// user's OAuth 2.0 grant (server/oauth); while the user has not signed in, the secret (if
	// any) is sent as the query parameter Name, the API's apiKey alternative. See oauth.go.
	SendOAuth2 = "oauth2"
)

// Credential is an API's secret and how the proxy sends it. At most one of Value, File and Env
// is set; with none, a sandbox API uses SandboxKey and a real API sends nothing.
type Credential struct {
	// Value is the secret itself. Prefer File or Env, which keep it out of the config file.
	Value string `yaml:"value"`
	// File is a file holding the secret; surrounding white space is trimmed. It is re-read
	// when the configuration is reloaded, so rotating the secret needs no restart.
	File string `yaml:"file"`
	// Env is the name of an environment variable holding the secret.
	Env string `yaml:"env"`
	// Send is bearer, header, basic, query, cookie or none. Empty means as the API's OpenAPI document
	// says (its first security requirement): the server derives it, with Name and Prefix,
	// from the document's security scheme (see server/apis.go).
	Send string `yaml:"send"`
	// Name is the header (send: header), query parameter (send: query) or cookie (send:
	// cookie) that carries the secret.
	Name string `yaml:"name"`
	// Prefix goes before the secret in a header (send: header), such as "ApiKey " or "Token ".
	Prefix string `yaml:"prefix"`
	// OAuth2 is the client of send: oauth2 (client_id, client_secret, auth_url, token_url,
	// revoke_url, userinfo_url, scopes); see oauth.go.
	OAuth2 `yaml:",inline"`

	secret string // resolved by resolve
}

// applyDefaults fills the Name of a header or query credential whose Send is set.
func (c *Credential) applyDefaults() {
	switch {
	case c.Send == SendHeader && c.Name == "":
		c.Name = "Authorization"
	case c.Send == SendQuery && c.Name == "":
		c.Name = "key"
	}
}

// hasSource reports whether a secret source is configured.
func (c *Credential) hasSource() bool { return c.Value != "" || c.File != "" || c.Env != "" }

// resolve reads the secret from its source; key names the credential in error messages.
func (c *Credential) resolve(key string, sandbox bool, lookupEnv func(string) (string, bool)) error {
	switch {
	case c.Value != "":
		c.secret = c.Value
	case c.File != "":
		b, err := os.ReadFile(c.File)
		if err != nil {
			return fmt.Errorf("%s.file: reading the credential: %w", key, err)
		}
		c.secret = strings.TrimSpace(string(b))
		if c.secret == "" {
			return fmt.Errorf("%s.file: %s is empty; expected the secret", key, c.File)
		}
	case c.Env != "":
		v, ok := lookupEnv(c.Env)
		if !ok || strings.TrimSpace(v) == "" {
			return fmt.Errorf("%s.env: environment variable %s is unset or empty; expected the secret", key, c.Env)
		}
		c.secret = strings.TrimSpace(v)
	case sandbox:
		c.secret = SandboxKey
	default:
		c.secret = ""
	}
	if strings.ContainsAny(c.secret, "\r\n\x00") {
		return fmt.Errorf("%s: the secret contains a line break or NUL; expected one line", key)
	}
	return nil
}

// Secret returns the resolved secret; empty when none is sent.
func (c *Credential) Secret() string {
	if c.Send == SendNone {
		return ""
	}
	return c.secret
}

// Apply returns how to add the credential to an outgoing request, or nil when nothing is sent
// (placement.Apply). Before the user signs in, send: oauth2 sends the secret (if any) as the
// query parameter Name.
func (c *Credential) Apply() func(*http.Request) {
	send := c.Send
	if send == SendOAuth2 {
		send = placement.Query
	}
	return placement.Apply(send, c.Name, c.Prefix, c.Secret())
}

// Sensitive returns every form in which the secret could appear in a response or a log: the
// secret itself, percent-encoded, and base64-encoded as Basic auth sends it. The proxy masks
// them in responses.
func (c *Credential) Sensitive() []string {
	out := c.OAuth2.sensitive(c.Send)
	s := c.Secret()
	if s == "" {
		return out
	}
	out = append(out, s)
	if e := url.QueryEscape(s); e != s {
		out = append(out, e)
	}
	if c.Send == SendBasic {
		out = append(out, base64.StdEncoding.EncodeToString([]byte(s)))
	}
	return out
}

// WithSecret returns a copy of the credential that sends secret, the same way.
func (c Credential) WithSecret(secret string) Credential {
	c.secret = secret
	return c
}
