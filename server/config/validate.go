package config

import (
	"fmt"
	"maps"
	"math"
	"net"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strings"
)

// Validate checks every value; its error names the first offending key and what is expected.
// It does not read credentials (ResolveCredentials does).
func (c *Config) Validate() error {
	s := &c.Server
	host, port, err := net.SplitHostPort(s.Addr)
	if err != nil || port == "" {
		return errKey("server.addr", "expected host:port such as 127.0.0.1:8080, got %q", s.Addr)
	}
	if s.PublicURL != "" {
		u, err := url.Parse(s.PublicURL)
		switch {
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil:
			return errKey("server.public_url", "expected an http or https URL such as https://loupe.example.com, got %q", redactURL(s.PublicURL))
		case u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(s.PublicURL, "?"):
			return errKey("server.public_url", "expected no query or fragment, got %q", redactURL(s.PublicURL))
		}
	}
	if err := c.validateAccess(); err != nil {
		return err
	}
	if err := validateDatabase(s.Database); err != nil {
		return err
	}
	l := &s.Limits
	switch {
	case l.Rate > 0 && l.Burst < 1:
		return errKey("server.limits.burst", "expected at least 1 when server.limits.rate is set, got %d", l.Burst)
	case l.MaxBody <= 0:
		return errKey("server.limits.max_body", "expected a positive number of bytes, got %d", l.MaxBody)
	case l.UpstreamTimeout <= 0:
		return errKey("server.limits.upstream_timeout", "expected a positive duration, got %s", l.UpstreamTimeout)
	case l.StreamIdleTimeout <= 0:
		return errKey("server.limits.stream_idle_timeout", "expected a positive duration, got %s", l.StreamIdleTimeout)
	case l.MaxDocument <= 0:
		return errKey("server.limits.max_document", "expected a positive number of bytes, got %d", l.MaxDocument)
	case l.DocumentBuildTimeout <= 0:
		return errKey("server.limits.document_build_timeout", "expected a positive duration, got %s", l.DocumentBuildTimeout)
	case s.Sandbox.IdleTimeout < 0:
		return errKey("server.sandbox.idle_timeout", "expected a positive duration, got %s", s.Sandbox.IdleTimeout)
	case s.Sandbox.MaxSessions < 0:
		return errKey("server.sandbox.max_sessions", "expected a positive number, got %d", s.Sandbox.MaxSessions)
	case s.Sandbox.MaxSessionsPerClient < 0:
		return errKey("server.sandbox.max_sessions_per_client", "expected a positive number, got %d", s.Sandbox.MaxSessionsPerClient)
	case s.Sandbox.MaxTotalBytes < 0:
		return errKey("server.sandbox.max_total_bytes", "expected a positive number of bytes, got %d", s.Sandbox.MaxTotalBytes)
	case s.Sandbox.MaxBytes < 0:
		return errKey("server.sandbox.max_bytes", "expected a positive number of bytes, got %d", s.Sandbox.MaxBytes)
	case !(s.Sandbox.ChatTokensPerSecond > 0) || math.IsInf(s.Sandbox.ChatTokensPerSecond, 1):
		return errKey("server.sandbox.chat_tokens_per_second", "expected a positive number of tokens per second, got %g", s.Sandbox.ChatTokensPerSecond)
	}
	for _, slug := range slices.Sorted(maps.Keys(c.APIs)) {
		if err := validateSlug(slug, c.APIs[slug]); err != nil {
			return err
		}
		if err := c.APIs[slug].validate("apis." + slug); err != nil {
			return err
		}
	}
	if err := c.validateWalkthroughs(); err != nil {
		return err
	}
	if s.Access.Mode == AccessNone && !isLoopback(host) {
		if real := c.RealCredentials(); len(real) > 0 {
			return errKey("server.access.mode", "listening on %s (not loopback) with real credentials configured (%s) needs an access mode: users (with server.access.users_file) or header (behind an authenticating proxy)",
				s.Addr, strings.Join(real, ", "))
		}
	}
	return nil
}

func (c *Config) validateAccess() error {
	a := &c.Server.Access
	switch a.Mode {
	case AccessNone:
	case AccessUsers:
		if a.UsersFile == "" {
			return errKey("server.access.users_file", "expected the path of a users file (name:bcrypt-hash lines, as htpasswd -B writes) with mode users")
		}
		if _, err := os.Stat(a.UsersFile); err != nil {
			return errKey("server.access.users_file", "%v", err)
		}
	case AccessHeader:
		if len(a.TrustedProxies) == 0 {
			return errKey("server.access.trusted_proxies", "expected the addresses of the authenticating proxy (such as [127.0.0.1]) with mode header")
		}
	default:
		return errKey("server.access.mode", "expected none, users or header, got %q", a.Mode)
	}
	if !validToken(a.Header) {
		return errKey("server.access.header", "expected a header name such as X-Forwarded-User, got %q", a.Header)
	}
	if h := a.ClientAddressHeader; !strings.EqualFold(h, "X-Forwarded-For") && !strings.EqualFold(h, "Forwarded") {
		return errKey("server.access.client_address_header", "expected X-Forwarded-For or Forwarded (the header your trusted proxies set), got %q", h)
	}
	for i, p := range a.TrustedProxies {
		if _, err := ParsePrefix(p); err != nil {
			return errKey(fmt.Sprintf("server.access.trusted_proxies[%d]", i), "expected an IP address or CIDR prefix such as 10.0.0.0/8, got %q", p)
		}
	}
	if a.SessionTTL <= 0 {
		return errKey("server.access.session_ttl", "expected a positive duration, got %s", a.SessionTTL)
	}
	return nil
}

func (a *API) validate(key string) error {
	if a.BaseURL != "" {
		u, err := url.Parse(a.BaseURL)
		switch {
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
			return errKey(key+".base_url", "expected an http or https URL such as https://api.example.com, got %q", redactURL(a.BaseURL))
		case u.User != nil:
			return errKey(key+".base_url", "expected no user:password@ in the URL; put credentials under %s.credential", key)
		case u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(a.BaseURL, "?"):
			return errKey(key+".base_url", "expected no query or fragment, got %q", redactURL(a.BaseURL))
		}
	}
	if a.Sandbox != nil && *a.Sandbox && a.BaseURL != "" {
		return errKey(key+".sandbox", "true, but base_url is set, and calls go there; remove one of them")
	}
	if (a.Sandbox != nil || a.SandboxHints != nil) && a.OpenAPI == "" {
		return errKey(key+".sandbox", "only an API of your own (with openapi) has a sandbox built from its document; a built-in API has its own")
	}
	cr := &a.Credential
	ck := key + ".credential"
	n := 0
	for _, s := range []string{cr.Value, cr.File, cr.Env} {
		if s != "" {
			n++
		}
	}
	if n > 1 {
		return errKey(ck, "expected one of value, file or env, not %d of them", n)
	}
	switch cr.Send {
	case "", SendBearer, SendBasic, SendNone: // "": as the API's document says
	case SendHeader:
		if !validToken(cr.Name) || isReserved(cr.Name) {
			return errKey(ck+".name", "expected a header name such as Authorization or X-Api-Key, got %q", cr.Name)
		}
	case SendQuery:
		if cr.Name == "" || strings.ContainsAny(cr.Name, "&=#? ") {
			return errKey(ck+".name", "expected a query parameter name such as key, got %q", cr.Name)
		}
	case SendCookie:
		if !validToken(cr.Name) {
			return errKey(ck+".name", "expected a cookie name such as session_id, got %q", cr.Name)
		}
	case SendOAuth2:
		if err := cr.OAuth2.validate(ck, a.IsSandbox()); err != nil {
			return err
		}
	default:
		return errKey(ck+".send", "expected bearer, header, basic, query, cookie, oauth2 or none, got %q", cr.Send)
	}
	// With send unset, whether a credential is needed is the document's to say (server/apis.go).
	if !a.IsSandbox() && cr.Send != SendNone && cr.Send != SendOAuth2 && cr.Send != "" && !cr.hasSource() {
		return errKey(ck, "the API at %s is sent a credential (%s) but none is given; expected value, file or env (or send: none)", redactURL(a.BaseURL), cr.Send)
	}
	if err := a.validateSchemes(key); err != nil {
		return err
	}
	for field, ids := range map[string][]string{"allow": a.Allow, "admin_only": a.AdminOnly} {
		for i, id := range ids {
			if id == "" || strings.ContainsAny(id, " /") {
				return errKey(fmt.Sprintf("%s.%s[%d]", key, field, i), "expected an operationId, got %q", id)
			}
		}
	}
	return nil
}

// ResolveCredentials reads every API's secret from its value, file or environment variable.
func (c *Config) ResolveCredentials() error {
	lookup := c.lookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	for _, slug := range slices.Sorted(maps.Keys(c.APIs)) {
		a := c.APIs[slug]
		key := "apis." + slug + ".credential"
		if err := a.Credential.resolve(key, a.IsSandbox(), lookup); err != nil {
			return err
		}
		if a.Credential.IsOAuth2() {
			if err := a.Credential.OAuth2.resolveClient(key, lookup); err != nil {
				return err
			}
		}
		if err := a.Credential.checkSecret(key); err != nil {
			return err
		}
		if err := a.resolveSchemes("apis."+slug+".credentials", lookup); err != nil {
			return err
		}
	}
	return nil
}

// RealCredentials lists the APIs (apis.<slug>) that send a credential to a real upstream.
func (c *Config) RealCredentials() []string {
	var out []string
	for _, slug := range slices.Sorted(maps.Keys(c.APIs)) {
		if a := c.APIs[slug]; a != nil && !a.IsSandbox() && (a.Credential.Send != SendNone && (a.Credential.hasSource() || a.Credential.IsOAuth2()) || len(a.Credentials) > 0) {
			out = append(out, "apis."+slug)
		}
	}
	return out
}

// ParsePrefix parses an IP address or CIDR prefix; an address is a prefix of one address.
func ParsePrefix(s string) (netip.Prefix, error) {
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		return p.Masked(), err
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	return netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()), nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

func validToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r > 0x7e || r <= ' ' || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return true
}

// isReserved reports headers a credential must not be sent in.
func isReserved(name string) bool {
	switch strings.ToLower(name) {
	case "host", "connection", "content-length", "transfer-encoding", "cookie", "te", "upgrade", "proxy-connection", "keep-alive", "trailer":
		return true
	}
	return false
}
