// Package server is Loupe's backend as a library: New composes the catalog, the proxy, the
// built-in sandboxes, access control and the site into one http.Handler. The binary is
// server/cmd/loupe.
package server

import (
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
	"loupe/server/internal/memnet"
	"loupe/server/proxy"
	"loupe/server/sandbox"
	"loupe/server/sandbox/script"
	"loupe/server/site"
	"loupe/server/walkthrough"
	"loupe/web"
)

// SandboxURL is the base URL under which the proxy reaches the built-in sandboxes. The host is
// not a network name: the server dials an in-memory listener for it.
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

// Server is Loupe's http.Handler. Close it to stop the in-memory sandbox server.
type Server struct {
	cfg      Config
	handler  http.Handler
	internal *http.Server
	listener *memnet.Listener
	catalog  *catalog.Catalog
	proxy    *proxy.Proxy
	gate     *access.Gate
	sbKeys   map[string]string // the keys the sandboxes were built with
	walks    *walkthrough.Set
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
	cat, walks, err := loadCatalog(cfg.Content)
	if err != nil {
		return nil, err
	}
	ownDocs, err := servercatalog.LoadOwn(cat, ownAPIs(cfg.Settings))
	if err != nil {
		return nil, err
	}
	loupeapp.UseCatalog(cat)
	routesOnce.Do(loupeapp.Routes)
	s := &Server{cfg: cfg, catalog: cat, sbKeys: map[string]string{}, walks: walks}
	for _, a := range cat.APIs {
		s.sbKeys[a.Slug] = cfg.sandboxKey(a.Slug)
	}

	sandboxes, err := newSandboxes(cfg)
	if err != nil {
		return nil, err
	}
	sbMux := sandbox.NewMux(sandboxes)
	s.listener = memnet.Listen()
	s.internal = &http.Server{Handler: sbMux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := s.internal.Serve(s.listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
			cfg.Logger.Error("sandbox server stopped", "err", err)
		}
	}()

	if s.gate, err = access.New(accessOptions(cfg.Settings, cfg.Logger)); err != nil {
		return nil, err
	}
	apis, err := s.proxyAPIs(cfg.Settings)
	if err != nil {
		s.Close()
		return nil, err
	}
	transport := proxy.NewTransport()
	sandboxTransport := transport.Clone()
	sandboxTransport.DialContext = s.listener.DialContext
	lim := cfg.Settings.Server.Limits
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
		MaxBody:           lim.MaxBody,
		UpstreamTimeout:   lim.UpstreamTimeout,
		StreamIdleTimeout: lim.StreamIdleTimeout,
		TrustedOrigins:    trusted,
		StripHeaders:      []string{cfg.Settings.Server.Access.Header},
		PublicURL:         public,
		Audit:             cfg.Audit,
	})

	st, err := site.New(site.Options{
		Web:        cfg.Web,
		RawHeaders: []string{`<link rel="preload" href="/catalog.json" as="fetch" crossorigin="anonymous">`},
		Page:       func(path string) bool { return isPage(cat, path) },
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
	catHandler := servercatalog.Handler(cat, docsFS{cfg.Content, ownDocs})
	mux.Handle("/catalog.json", catHandler)
	mux.Handle("/catalog/", catHandler)
	mux.Handle("/openapi/", catHandler)
	mux.Handle("/sandbox/", sandboxGuard(sbMux, public))
	mux.Handle("GET /preview", previewHandler())
	// The script workspace's syntax check: Loupe's own tool, whichever server the script API uses.
	mux.Handle(script.SyntaxCheckPath, http.NewCrossOriginProtection().Handler(script.SyntaxChecker()))
	mux.Handle("POST /walkthroughs/{id}/step", walkthrough.Handler(walks))
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
	s.handler = logRequests(cfg.Logger, access.SecurityHeaders(s.gate.Wrap(routed)))
	return s, nil
}

// Catalog returns the compiled catalog the app reads.
func (s *Server) Catalog() *catalog.Catalog { return s.catalog }

// Walkthroughs returns the walkthroughs loaded from the content (server/walkthrough).
func (s *Server) Walkthroughs() *walkthrough.Set { return s.walks }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Close stops the in-memory sandbox server.
func (s *Server) Close() error {
	s.listener.Close()
	return s.internal.Close()
}

// routeTransport sends requests for the sandbox host over the in-memory listener.
type routeTransport struct{ sandbox, other http.RoundTripper }

// RoundTrip implements http.RoundTripper.
func (t routeTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Host == "sandbox.loupe.internal" {
		return t.sandbox.RoundTrip(r)
	}
	return t.other.RoundTrip(r)
}
