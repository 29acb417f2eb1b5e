package server

import (
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/time/rate"

	"loupe/server/access"
	"loupe/server/config"
	"loupe/server/internal/clientip"
	"loupe/server/proxy"
)

// Reload applies a reloaded configuration without a restart: each API's base URL, credential
// (rotated keys), allow lists and policy, the users file, the admins and the walkthroughs of the
// walkthroughs key (the runner and /catalog.json serve the new ones). What needs a restart
// (the address, the public URL, the limits, the secret key, the rest of server.access) is kept, and a warning
// says so. Calls in flight finish
// with the old settings.
func (s *Server) Reload(next *config.Config) error {
	apis, err := s.proxyAPIs(next)
	if err != nil {
		return err
	}
	if err := s.reloadWalkthroughs(next); err != nil {
		return err
	}
	old, nw := s.cfg.Settings.Server, next.Server
	if nw.Addr != old.Addr || nw.PublicURL != old.PublicURL || nw.Limits != old.Limits || nw.Access.Mode != old.Access.Mode ||
		nw.Access.Header != old.Access.Header || !slices.Equal(nw.Access.TrustedProxies, old.Access.TrustedProxies) || nw.Access.SessionTTL != old.Access.SessionTTL ||
		nw.SecretKey != old.SecretKey || nw.SecretKeyValue != old.SecretKeyValue {
		s.cfg.Logger.Warn("configuration reloaded; changes to server.addr, server.public_url, server.limits, server.secret_key and server.access (but its users file and admins) take effect on restart")
	}
	if next.Server.Access.Mode == old.Access.Mode {
		if err := s.gate.Reload(accessOptions(next, s.cfg.Logger)); err != nil {
			return err
		}
	}
	s.proxy.SetAPIs(apis, s.catalog)
	s.oauth.SetProviders(s.oauthProviders(next))
	s.cfg.Settings = next
	return nil
}

// proxyAPIs turns the configuration into the proxy's APIs, checking every operationId it
// names against the catalog.
func (s *Server) proxyAPIs(c *config.Config) (map[string]*proxy.API, error) {
	out := map[string]*proxy.API{}
	for _, slug := range slices.Sorted(maps.Keys(c.APIs)) {
		if s.catalog.API(slug) == nil {
			s.cfg.Logger.Warn("apis." + slug + " is not served yet: adding an API of your own takes a restart")
		}
	}
	for _, api := range s.catalog.APIs {
		slug := api.Slug
		a, err := apiConfig(c, &api)
		if err != nil {
			return nil, err
		}
		if err := s.checkOperations(slug, a); err != nil {
			return nil, err
		}
		cred := a.Credential
		base := a.BaseURL
		if a.IsSandbox() {
			base = SandboxURL + slug
			// The sandbox was built with its key; a reload cannot change what it accepts.
			if cred.Send != config.SendNone {
				cred = cred.WithSecret(s.sbKeys[slug])
			}
		}
		var u *url.URL
		if base != "" {
			if u, err = url.Parse(base); err != nil {
				return nil, fmt.Errorf("apis.%s.base_url: %w", slug, err)
			}
		}
		p := &proxy.API{
			BaseURL:           u,
			Unset:             unsetAdvice(slug, api.Servers),
			Apply:             cred.Apply(),
			Secrets:           cred.Sensitive(),
			Allow:             a.Allow,
			AdminOnly:         a.AdminOnly,
			AllowUndocumented: a.AllowUndocumented,
			Forwarded:         a.IsSandbox(), // its paged lists link back through the proxy
			Sandbox:           a.IsSandbox(),
		}
		if cred.IsOAuth2() {
			p.Authorize = s.oauth.Authorize(slug) // the user's grant; until then the key
		}
		switch cred.Send {
		case config.SendHeader:
			p.CredentialHeader = cred.Name
		case config.SendQuery:
			p.CredentialParam = cred.Name
		}
		if api.Own && c.APIs[slug] != nil && c.APIs[slug].Credential.Send == "" {
			// Credentials go to each operation as its own security says (an explicit
			// credential.send keeps sending one credential to every call).
			sec, err := ownSecurity(&api, c.APIs[slug])
			if err != nil {
				return nil, err
			}
			p.Apply, p.OperationAuth = nil, sec.auth
			p.CredentialHeaders, p.CredentialParams = sec.headers, sec.params
			p.Secrets = append(p.Secrets, sec.secrets...)
		}
		out[slug] = p
	}
	return out, nil
}

// checkOperations refuses an allow or admin_only entry that names no operation of the API.
func (s *Server) checkOperations(slug string, a *config.API) error {
	api := s.catalog.API(slug)
	var ids []string
	if api != nil {
		for _, op := range api.Operations {
			ids = append(ids, op.ID)
		}
	}
	for field, list := range map[string][]string{"allow": a.Allow, "admin_only": a.AdminOnly} {
		for i, id := range list {
			if !slices.Contains(ids, id) {
				return fmt.Errorf("apis.%s.%s[%d]: %q is not an operation of %s; expected one of: %s", slug, field, i, id, slug, strings.Join(ids, ", "))
			}
		}
	}
	return nil
}

// accessOptions turns the configuration into the access gate's options.
func accessOptions(c *config.Config, log *slog.Logger) access.Options {
	a := c.Server.Access
	opts := access.Options{
		Mode:       a.Mode,
		UsersFile:  a.UsersFile,
		Header:     a.Header,
		Admins:     a.Admins,
		SessionTTL: a.SessionTTL,
		Secure:     strings.HasPrefix(c.Server.PublicURL, "https:"),
		Logger:     log,
	}
	for _, p := range a.TrustedProxies {
		if pf, err := config.ParsePrefix(p); err == nil { // validated by config
			opts.TrustedProxies = append(opts.TrustedProxies, pf)
		}
	}
	return opts
}

// rateKey names whose calls share a rate limit: in mode none (everyone is "local") the client
// address (clientip), else the signed-in user.
func rateKey(mode string, gate *access.Gate) func(*http.Request) (string, bool) {
	return func(r *http.Request) (string, bool) {
		if mode == config.AccessNone {
			return "client:" + clientip.Of(r.Context()), false
		}
		name, _ := gate.User(r)
		return "user:" + name, true
	}
}

func rateOf(perSecond float64) rate.Limit {
	if perSecond <= 0 {
		return 0
	}
	return rate.Limit(perSecond)
}
