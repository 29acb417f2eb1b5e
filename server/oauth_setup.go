package server

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"loupe/app/catalog"
	"loupe/server/config"
	"loupe/server/oauth"
	"loupe/server/proxy"
	"loupe/server/sandbox/state"
)

// sandboxOrigin is the in-memory address of the built-in sandboxes (SandboxURL's origin): an
// OAuth endpoint configured as a path, such as /sandbox/script/oauth/token, is reached there.
const sandboxOrigin = "http://sandbox.loupe.internal"

// newOAuth builds the sign-in service (server/oauth) for the APIs whose credential says
// send: oauth2. Its calls to token, revocation and userinfo endpoints go to the built-in
// sandboxes through sandboxes (in-process), else to the network.
func (s *Server) newOAuth(c *config.Config, sandboxes http.RoundTripper) *oauth.Service {
	client := &http.Client{Transport: callerTransport{routeTransport{sandbox: sandboxes, other: proxy.NewTransport()}}, Timeout: 30 * time.Second,
		// A token endpoint answers; it never redirects a client secret elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return oauth.New(s.durable.oauth(oauth.Options{
		Providers: s.oauthProviders(c),
		Client:    client,
		User:      s.gate.User,
		Secrets:   s.secrets,
		PublicURL: publicURL(c.Server.PublicURL),
		Logger:    s.cfg.Logger,
	}))
}

// callerTransport names the Loupe user a sign-in's token call is made for (oauth.CallerOf) as
// their sandbox session, which routeTransport passes to the built-in sandboxes: the script
// sandbox's authorization server then keeps the user's grant as a signed-in user's, which no
// anonymous client's sign-ins evict.
type callerTransport struct{ next http.RoundTripper }

// RoundTrip implements http.RoundTripper.
func (t callerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if user, ok := oauth.CallerOf(r.Context()); ok {
		r = r.WithContext(state.WithSession(r.Context(), state.UserSession(user)))
	}
	return t.next.RoundTrip(r)
}

// oauthProviders turns every send: oauth2 credential into a provider.
func (s *Server) oauthProviders(c *config.Config) map[string]*oauth.Provider {
	out := map[string]*oauth.Provider{}
	for _, slug := range slices.Sorted(maps.Keys(c.APIs)) {
		a := c.APIs[slug]
		if a == nil || !a.Credential.IsOAuth2() {
			continue
		}
		cr := &a.Credential
		p := &oauth.Provider{
			API: slug, Title: slug, ClientID: cr.ClientID, ClientSecret: cr.OAuth2.Secret(),
			AuthURL: cr.AuthURL, TokenURL: serverSide(cr.TokenURL), RevokeURL: serverSide(cr.RevokeURL),
			UserinfoURL: serverSide(cr.UserinfoURL), ConfigKey: "apis." + slug + ".credential",
		}
		if cr.Secret() != "" {
			p.Fallback, p.FallbackParam = "the API key (?"+cr.Name+"=)", cr.Name
		}
		api := s.catalog.API(slug)
		if api != nil {
			p.Title = api.Title
		}
		p.Scopes = scopesOf(api, cr.Scopes)
		out[slug] = p
	}
	return out
}

// scopesOf returns the scopes a user may ask for: the configured ones, else every scope of the
// API's oauth2 scheme, each with the document's description.
func scopesOf(api *catalog.API, configured []string) []oauth.Scope {
	var doc []catalog.Scope
	if api != nil {
		for _, sc := range api.Security {
			if sc.Type != "oauth2" {
				continue
			}
			for _, f := range sc.Flows {
				if f.Type == "authorizationCode" {
					doc = append(doc, f.Scopes...)
				}
			}
		}
	}
	var out []oauth.Scope
	if len(configured) == 0 {
		for _, d := range doc {
			out = append(out, oauth.Scope{Name: d.Name, Description: d.Description})
		}
		return out
	}
	for _, name := range configured {
		sc := oauth.Scope{Name: name}
		for _, d := range doc {
			if d.Name == name {
				sc.Description = d.Description
			}
		}
		out = append(out, sc)
	}
	return out
}

// serverSide resolves an endpoint configured as a path against the sandboxes' address.
func serverSide(u string) string {
	if strings.HasPrefix(u, "/") {
		return sandboxOrigin + u
	}
	return u
}

// publicURL parses server.public_url (validated by config); nil when unset.
func publicURL(v string) *url.URL {
	if v == "" {
		return nil
	}
	u, err := url.Parse(v)
	if err != nil {
		return nil
	}
	return u
}
