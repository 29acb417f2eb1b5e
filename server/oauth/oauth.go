// Package oauth is Loupe's side of OAuth 2.0: a Loupe user signs in to an API whose credential
// says send: oauth2 (authorization code with PKCE and a state bound to the browser), the server
// keeps the grant (one per Loupe user and API, in memory and, when given a GrantStore, encrypted
// in it, so that a restart signs no one out; a sign-in under way is kept by the
// browser, sealed in its state cookie, so that no one can fill a table of them), refreshes its access token before it
// expires, and the proxy sends it as "Authorization: Bearer". The browser never sees a token:
// GET /oauth/status tells the page who is signed in and with which scopes, nothing more.
//
// Routes (Service.ServeHTTP):
//
//	GET  /oauth/start?api=<slug>&scope=<s>&scope=<s>&return=<path>   to the provider's consent page
//	GET  /oauth/callback                                              the provider sends the browser back
//	GET  /oauth/status?api=<slug>                                     JSON for the page (Status)
//	POST /oauth/signout?api=<slug>&return=<path>                      revoke where supported, forget
//
// It is built on golang.org/x/oauth2. Nothing here logs a token, a code, a verifier or a secret.
package oauth

import (
	"context"
	"log/slog"
	"loupe/app/catalog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"loupe/server/internal/seal"
	"loupe/server/proxy"
)

// Prefix is where the routes are mounted.
const Prefix = "/oauth/"

// Scope is a scope a user may ask for, with what it allows (catalog.OAuthScope).
type Scope = catalog.OAuthScope

// Provider is one API's OAuth client, from its send: oauth2 credential.
type Provider struct {
	// API is the slug, as /oauth/start?api= names it.
	API string
	// Title is the API's name for pages, such as "Script projects"; default API.
	Title string
	// ClientID and ClientSecret are the client's credentials (sent with basic or post, as the
	// provider accepts: golang.org/x/oauth2 finds out).
	ClientID, ClientSecret string
	// AuthURL is the authorization endpoint the browser opens; a path is on Loupe's own address.
	AuthURL string
	// TokenURL, RevokeURL and UserinfoURL are the endpoints the server calls, absolute (a
	// sandbox's are on its in-memory address). RevokeURL and UserinfoURL may be empty.
	TokenURL, RevokeURL, UserinfoURL string
	// Scopes are the scopes a user may choose from, all asked for by default.
	Scopes []Scope
	// ConfigKey names the credential in messages, such as apis.script.credential.
	ConfigKey string
	// Fallback says what the proxy sends while a user has not signed in, such as
	// "the API key (?key=)"; empty when nothing is sent.
	Fallback string
	// FallbackParam is the query parameter Fallback is sent as (key); empty when nothing is.
	FallbackParam string
}

// Options configures a Service.
type Options struct {
	// Providers are the APIs that sign in with OAuth, keyed by slug.
	Providers map[string]*Provider
	// Client performs the calls to the token, revocation and userinfo endpoints. Nil means
	// http.DefaultClient.
	Client *http.Client
	// User names the request's Loupe user (access.Gate.User). Nil means everyone is "local".
	User func(*http.Request) (string, bool)
	// Secrets receives every access and refresh token while it is held, so that the proxy
	// masks it in every response and log line. Nil registers nowhere.
	Secrets *proxy.SecretSet
	// PublicURL is where browsers reach Loupe when configured (server.public_url); nil means
	// the address each request came to.
	PublicURL *url.URL
	// Logger receives one line per sign-in, sign-out and failure, never a token. Nil means
	// slog.Default().
	Logger *slog.Logger
	// StateKey seals the sign-ins in progress in their state cookies (32 bytes, derived from
	// the server's secret key): replicas with the same key finish each other's sign-ins. Nil
	// means a key made at start.
	StateKey []byte
	// Grants keeps the grants across restarts (and, on a shared database, across replicas),
	// each sealed with GrantKey. Nil means in memory only: a restart signs everyone out.
	Grants GrantStore
	// GrantKey encrypts the grants kept in Grants (AES-256-GCM, 32 bytes, derived from the
	// server's secret key). Required with Grants.
	GrantKey []byte
	// SharedGrants says other processes (replicas on server.database) write Grants too: each
	// use of a grant reads it from Grants (one lookup by key), so that a sign-in, a renewal or
	// a sign-out on another replica holds here at the next request. False means this process
	// alone writes Grants: it is read once, on a grant's first use after a start.
	SharedGrants bool
}

// Service serves the routes and holds the grants. It is safe for concurrent use.
type Service struct {
	opts      Options
	mu        sync.Mutex
	providers map[string]*Provider
	grants    map[grantKey]*grant // the grants in use; with Options.Grants, also kept there
	sealer    *sealer             // pending sign-ins live in the browser's state cookie, sealed
	kept      *seal.Sealer        // encrypts the grants kept in Options.Grants
}

// New returns a Service.
func New(opts Options) *Service {
	if opts.Client == nil {
		opts.Client = http.DefaultClient
	}
	if opts.Secrets == nil {
		opts.Secrets = &proxy.SecretSet{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	s := &Service{opts: opts, providers: opts.Providers, grants: map[grantKey]*grant{}, sealer: newSealer(opts.StateKey)}
	if opts.Grants != nil {
		s.kept = seal.NewKey(opts.GrantKey)
	}
	return s
}

// SetProviders replaces the providers after the configuration was reloaded; grants of an API
// that no longer signs in are forgotten.
func (s *Service) SetProviders(p map[string]*Provider) {
	s.mu.Lock()
	s.providers = p
	var gone []*grant
	for k, g := range s.grants {
		if p[k.api] == nil {
			gone = append(gone, g)
			delete(s.grants, k)
		}
	}
	s.mu.Unlock()
	for _, g := range gone {
		g.release(s.opts.Secrets)
	}
}

// provider returns the provider of slug, or nil.
func (s *Service) provider(slug string) *Provider {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.providers[slug]
}

// slugs lists the APIs that sign in, for messages.
func (s *Service) slugs() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for k := range s.providers {
		out = append(out, k)
	}
	sortStrings(out)
	return strings.Join(out, ", ")
}

// user names the request's Loupe user.
func (s *Service) user(r *http.Request) string {
	if s.opts.User == nil {
		return "local"
	}
	name, _ := s.opts.User(r)
	return name
}

// ServeHTTP implements http.Handler for Prefix.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case Prefix + "start":
		s.serveStart(w, r)
	case Prefix + "callback":
		s.serveCallback(w, r)
	case Prefix + "status":
		s.serveStatus(w, r)
	case Prefix + "signout":
		s.serveSignout(w, r)
	default:
		page(w, http.StatusNotFound, "Not found", "Loupe has no page at "+r.URL.Path+".", "", "/")
	}
}

// oauthConfig is the provider as golang.org/x/oauth2 needs it, sending the browser back to
// redirect.
func (p *Provider) oauthConfig(redirect string, scopes []string) *oauth2.Config {
	return &oauth2.Config{
		ClientID:     p.ClientID,
		ClientSecret: p.ClientSecret,
		Endpoint:     oauth2.Endpoint{AuthURL: p.AuthURL, TokenURL: p.TokenURL},
		RedirectURL:  redirect,
		Scopes:       scopes,
	}
}

// title is the API's name for pages.
func (p *Provider) title() string {
	if p.Title != "" {
		return p.Title
	}
	return p.API
}

// clientContext carries the HTTP client golang.org/x/oauth2 uses, and the Loupe user the calls
// are made for (CallerOf).
func (s *Service) clientContext(ctx context.Context, user string) context.Context {
	return context.WithValue(context.WithValue(ctx, oauth2.HTTPClient, s.opts.Client), callerKey{}, user)
}

// callerKey is the context key of the Loupe user a call to a token endpoint is made for.
type callerKey struct{}

// CallerOf returns the Loupe user a call of the Service's HTTP client (Options.Client) is made
// for: a token exchange or a refresh of their grant. The server's transport tells the built-in
// script sandbox's authorization server, so that it keeps a signed-in user's grants apart from
// anonymous clients' (server/oauth_setup.go).
func CallerOf(ctx context.Context) (string, bool) {
	u, ok := ctx.Value(callerKey{}).(string)
	return u, ok && u != ""
}

// callTimeout bounds one call to a provider's endpoint.
const callTimeout = 30 * time.Second
