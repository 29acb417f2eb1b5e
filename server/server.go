// Package server is Loupe's backend as a library: New composes the catalog, the proxy, the
// built-in sandboxes, access control and the site into one http.Handler. The binary is
// server/cmd/loupe.
package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"time"

	loupeapp "loupe/app"
	"loupe/app/catalog"
	"loupe/content"
	"loupe/server/access"
	servercatalog "loupe/server/catalog"
	"loupe/server/config"
	"loupe/server/internal/clientaddr"
	"loupe/server/internal/inproc"
	"loupe/server/oauth"
	"loupe/server/proxy"
	"loupe/server/sandbox"
	"loupe/server/sandbox/script"
	"loupe/server/sandbox/state"
	"loupe/server/site"
	"loupe/server/walkthrough"
	"loupe/web"
)

// SandboxURL is the base URL under which the proxy reaches the built-in sandboxes. The host is
// not a network name: the server answers it in-process (server/internal/inproc).
const SandboxURL = "http://sandbox.loupe.internal/sandbox/"

// Config configures a Server. The zero value serves every API from its built-in sandbox.
type Config struct {
	// Content holds openapi/, guides/ and data/. Nil means the embedded content.FS.
	Content fs.FS
	// Web holds the static assets and app.wasm. Nil means the embedded web.FS.
	Web fs.FS
	// Settings is the loaded configuration file and environment (server/config). Nil means
	// config.Default(): loopback, no access control, every API on its built-in sandbox.
	Settings *config.Config
	// ChatTokensPerSecond paces the built-in chat model. Zero means no delay (tests).
	ChatTokensPerSecond float64
	// ScriptAccessTokenTTL is how long the script sandbox's OAuth access tokens live. Zero
	// means an hour; tests of renewal make it seconds.
	ScriptAccessTokenTTL time.Duration
	// ScriptRunTimeout is the wall time a script run may take in the script sandbox. Zero
	// means 30 s, as the guide says; tests of the time limit make it seconds.
	ScriptRunTimeout time.Duration
	// Now is the clock of the sandbox sessions' registry: idle eviction
	// (server.sandbox.idle_timeout) and, with server.database, its claims. Nil means
	// time.Now; tests of eviction move it instead of sleeping.
	Now func() time.Time
	// Logger receives one line per request. Nil means slog.Default().
	Logger *slog.Logger
	// Audit receives one line per proxied call. Nil means Logger.
	Audit *slog.Logger
}

// sandboxKey is the credential the built-in sandbox of slug accepts: the configured one when
// the API goes to its sandbox, else the documented default.
func (c Config) sandboxKey(slug string) string {
	if a := c.Settings.APIs[slug]; a != nil && a.IsSandbox() {
		if s := a.Credential.Secret(); s != "" {
			return s
		}
	}
	return sandbox.DefaultKey
}

// routesOnce registers the app's routes, which the server prerenders, once per process.
var routesOnce sync.Once

// Server is Loupe's http.Handler.
type Server struct {
	cfg      Config
	handler  http.Handler
	catalog  *catalog.Catalog
	proxy    *proxy.Proxy
	gate     *access.Gate
	sbKeys   map[string]string // the keys the sandboxes were built with
	registry *state.Registry   // the sandboxes' per-session state
	shared   *sharedLimits     // the limits replicas hold together (server.database), or none
	walks    walkSet           // the built-in walkthroughs and the configuration's (walkthroughs.go)
	oauth    *oauth.Service    // users' OAuth grants (send: oauth2)
	secrets  *proxy.SecretSet  // their tokens, masked by the proxy
	durable  *durable          // the secret key; login sessions, grants and issued tokens on disk
}

// New builds the server. It fails when a content document is invalid or the configuration
// names an operation the catalog does not have.
func New(cfg Config) (*Server, error) {
	if cfg.Content == nil {
		cfg.Content = content.FS
	}
	if cfg.Web == nil {
		cfg.Web = web.FS
	}
	if cfg.Settings == nil {
		cfg.Settings = config.Default()
		if err := cfg.Settings.ResolveCredentials(); err != nil {
			return nil, err
		}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Audit == nil {
		cfg.Audit = cfg.Logger
	}
	lim := cfg.Settings.Server.Limits
	// The documents of your own are compiled while the built-in catalog is: on two cores a
	// large document's start is shorter by the built-in catalog's time.
	type ownResult struct {
		compiled []servercatalog.CompiledOwn
		err      error
	}
	ownDone := make(chan ownResult, 1)
	go func() {
		compiled, err := servercatalog.CompileOwn(ownAPIs(cfg.Settings), servercatalog.Limits{MaxBytes: lim.MaxDocument, BuildTimeout: lim.DocumentBuildTimeout})
		ownDone <- ownResult{compiled, err}
	}()
	cat, walks, err := loadCatalog(cfg.Content)
	own := <-ownDone
	if err != nil {
		return nil, err
	}
	if own.err != nil {
		return nil, own.err
	}
	ownDocs, err := servercatalog.AddOwn(cat, own.compiled)
	if err != nil {
		return nil, err
	}
	for i, api := range cat.APIs { // the API page says so, and shows what the sandbox inferred, and which credentials are sent
		a := cfg.Settings.APIs[api.Slug]
		if api.Own && a != nil && a.IsOwnSandbox() {
			cat.APIs[i].OwnSandbox = true
		}
		if api.Own && a != nil && a.Credential.Send == "" {
			// The preview shows the credentials the proxy sends, as reload.go places them
			// (which says what is wrong with a credential it cannot place).
			if sec, err := ownSecurity(&cat.APIs[i], a); err == nil {
				cat.APIs[i].SecurityPerOperation, cat.APIs[i].HeldSchemes = true, sec.held
			}
		}
	}
	configured, err := loadConfiguredWalkthroughs(cfg.Settings, cat, walks)
	if err != nil {
		return nil, err
	}
	base := cat
	if cat, err = withWalkthroughs(base, walks.Join(configured)); err != nil {
		return nil, err
	}
	loupeapp.UseCatalog(cat)
	routesOnce.Do(loupeapp.Routes)
	s := &Server{cfg: cfg, catalog: cat, sbKeys: map[string]string{}}
	s.walks.builtIn, s.walks.base, s.walks.all, s.walks.cat = walks, base, walks.Join(configured), cat
	for _, a := range cat.APIs {
		s.sbKeys[a.Slug] = cfg.sandboxKey(a.Slug)
	}

	var store string
	if s.registry, store, err = newRegistry(cfg.Settings.Server, cfg.Now); err != nil {
		return nil, err
	}
	cfg.Logger.Info("sandbox state", "store", store, "limits", s.registry.Limits())
	if s.durable, err = openDurable(cfg.Settings.Server, cfg.Logger); err != nil {
		s.registry.Store().Close()
		return nil, err
	}
	s.durable.share(s.registry, cfg.Logger)
	if s.shared, err = newSharedLimits(s.registry, cfg.Settings.Server.Limits); err != nil {
		s.Close()
		return nil, err
	}
	sandboxes, err := newSandboxes(cfg, s.registry, s.shared, ownDocs, s.durable.scriptOAuth(cfg.Logger))
	if err != nil {
		s.Close()
		return nil, err
	}
	sbMux := sandbox.NewMux(sandboxes)
	sbMux.Registry = s.registry

	gateOpts := s.durable.access(accessOptions(cfg.Settings, cfg.Logger))
	if shared := sharedSessions(s.registry); shared != nil { // server.database: the logins every replica knows
		gateOpts.Sessions = shared
	}
	if shared := sharedThrottle(s.registry); shared != nil { // and the wrong passwords every replica counts
		gateOpts.Throttle = shared
	}
	if s.gate, err = access.New(gateOpts); err != nil {
		s.Close()
		return nil, err
	}
	transport := proxy.NewTransport()
	// The sandboxes answer the proxy and the sign-in service in-process, with no connection
	// (see server/internal/inproc).
	sandboxTransport := &inproc.Transport{Handler: state.TrustHeader(sbMux), Logger: cfg.Logger}
	s.secrets = &proxy.SecretSet{}
	s.oauth = s.newOAuth(cfg.Settings, sandboxTransport)
	apis, err := s.proxyAPIs(cfg.Settings)
	if err != nil {
		s.Close()
		return nil, err
	}
	var trusted []string
	var public *url.URL
	if cfg.Settings.Server.PublicURL != "" {
		trusted = append(trusted, cfg.Settings.Server.PublicURL)
		if public, err = url.Parse(cfg.Settings.Server.PublicURL); err != nil {
			s.Close()
			return nil, fmt.Errorf("server.public_url: %w", err)
		}
	}
	s.proxy = proxy.New(proxy.Config{
		APIs:              apis,
		Catalog:           cat,
		Transport:         routeTransport{sandbox: sandboxTransport, other: transport},
		User:              s.gate.User,
		Rate:              rateOf(lim.Rate),
		Burst:             lim.Burst,
		RateKey:           rateKey(cfg.Settings.Server.Access.Mode, s.gate),
		Limiter:           s.shared.rateLimiter(),
		MaxBody:           lim.MaxBody,
		UpstreamTimeout:   lim.UpstreamTimeout,
		StreamIdleTimeout: lim.StreamIdleTimeout,
		TrustedOrigins:    trusted,
		StripHeaders:      []string{cfg.Settings.Server.Access.Header},
		PublicURL:         public,
		Audit:             cfg.Audit,
		Secrets:           s.secrets,
	})

	st, err := site.New(site.Options{
		Web:        cfg.Web,
		RawHeaders: []string{`<link rel="preload" href="/catalog.json" as="fetch" crossorigin="anonymous">`},
		Page:       func(path string) bool { return isPage(s.walks.catalog(), path) },
	})
	if err != nil {
		s.Close()
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /healthz", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"status":"ok","catalog":%q,"app":%q}`+"\n", cat.Version, st.Version())
	}))
	s.walks.docs = docsFS{cfg.Content, servercatalog.OwnBytes(ownDocs)}
	s.walks.setHandler(servercatalog.Handler(cat, s.walks.docs))
	catHandler := http.HandlerFunc(s.walks.serveCatalog)
	mux.Handle("/catalog.json", catHandler)
	mux.Handle("/catalog/", catHandler)
	mux.Handle("/openapi/", catHandler)
	mux.Handle("/sandbox/", sandboxGuard(sbMux, public))
	mux.Handle("GET /preview", previewHandler())
	// The script workspace's syntax check: Loupe's own tool, whichever server the script API uses.
	mux.Handle(script.SyntaxCheckPath, http.NewCrossOriginProtection().Handler(script.SyntaxChecker()))
	// The walkthrough runner's and recorder's requests, and the walkthroughs' documents.
	walkService := &walkthrough.Service{
		Set:     func(context.Context) (*walkthrough.Set, error) { return s.Walkthroughs(), nil },
		Catalog: func(context.Context) (*catalog.Catalog, error) { return s.walks.catalog(), nil },
	}
	walkService.Register(mux)
	mux.Handle("GET /arazzo/", walkthrough.ServeDocument(s.Walkthroughs))
	mux.Handle(oauth.Prefix, s.oauth)
	mux.Handle("/", st)
	routed := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The proxy sees its requests before the mux, which would clean a path with dot
		// segments and redirect rather than refuse it.
		if proxy.IsProxyRequest(r) {
			s.proxy.ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})
	secure := public != nil && public.Scheme == "https"
	// Every table bounded per client (sessions, logins, rate limits) names the client the same
	// way: its address, or behind a trusted proxy the address the proxy wrote (clientip).
	clients, err := clientaddr.New(accessOptions(cfg.Settings, cfg.Logger).TrustedProxies, cfg.Settings.Server.Access.ClientAddressHeader)
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("server.access.client_address_header: %w", err)
	}
	s.handler = logRequests(cfg.Logger, clients.Wrap(access.SecurityHeaders(s.gate.Wrap(withSandboxSession(routed, s.gate, cfg.Settings.Server.Access.Mode, secure)))))
	return s, nil
}

// Catalog returns the compiled catalog the app reads.
func (s *Server) Catalog() *catalog.Catalog { return s.catalog }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Close closes the sandboxes' state store, the shared run slots and the server's database.
// Requests in flight run to their end; the sandboxes answer the proxy in-process, so there is
// no server to stop.
func (s *Server) Close() error {
	s.shared.close()
	return errors.Join(s.registry.Store().Close(), s.durable.close())
}

// routeTransport sends requests for the sandbox host to the in-process sandboxes.
type routeTransport struct{ sandbox, other http.RoundTripper }

// RoundTrip implements http.RoundTripper.
func (t routeTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Host == "sandbox.loupe.internal" {
		state.SetHeader(r) // the caller's sandbox session, trusted on this listener only
		return t.sandbox.RoundTrip(r)
	}
	return t.other.RoundTrip(r)
}
