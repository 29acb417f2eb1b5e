// Package proxy forwards /proxy/<slug>/<path> to that API's configured base URL and nowhere
// else, adding the credential the server holds and dropping any the browser sent. It refuses
// paths that climb out of the base URL, calls to operations an API does not allow, cross-origin
// browser calls and users over their rate; it masks the credential in every response, answers
// its own failures with JSON that says which API and what to check, and writes one audit line
// per call.
package proxy

import (
	"context"
	"log"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/textproto"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"loupe/app/catalog"
)

// The defaults of Config's limits, also the configuration file's defaults (server/config).
const (
	// DefaultMaxBody is the request body cap in bytes: 10 MiB.
	DefaultMaxBody = 10 << 20
	// DefaultUpstreamTimeout is how long to wait for an upstream's response headers: longer
	// than the 30s an API's own wait lasts by default (cluster health's timeout), so such a wait
	// answers itself (408) before the proxy gives up (504).
	DefaultUpstreamTimeout = 60 * time.Second
	// DefaultStreamIdleTimeout ends a stream after this long without an event.
	DefaultStreamIdleTimeout = 60 * time.Second
)

// API is one API's destination, credential and policy.
type API struct {
	// BaseURL is where calls go: /proxy/<slug>/<path> is sent to BaseURL's origin with
	// BaseURL's path followed by <path>. Nil only with Unset.
	BaseURL *url.URL
	// Unset, when BaseURL is nil, is why the API has nowhere to go and what to set (an API
	// added by configuration, which has no built-in sandbox): every documented call is
	// answered 503 with it.
	Unset string
	// Apply adds the credential to an outgoing request. Nil sends none.
	Apply func(*http.Request)
	// Secrets are the forms of the credential that must never reach the browser; the proxy
	// masks them in the response headers and bodies of every API. Nil masks nothing.
	Secrets []string
	// CredentialHeader and CredentialParam name a custom header or query parameter that
	// carries the credential; the browser's own values for them are dropped, like
	// Authorization, Cookie, key and access_token always are. CredentialHeaders and
	// CredentialParams name more, for an API with several security schemes.
	CredentialHeader, CredentialParam   string
	CredentialHeaders, CredentialParams []string
	// OperationAuth, when set, adds each documented operation's credentials as its own
	// security says, by operationId (see OpAuth); an operation it does not list, and an
	// undocumented call, get Apply.
	OperationAuth map[string]OpAuth
	// Allow lists the operationIds that may be called; nil allows every documented one.
	Allow []string
	// AdminOnly lists operationIds only admins may call.
	AdminOnly []string
	// AllowUndocumented lets calls through that match no documented operation.
	AllowUndocumented bool
	// Forwarded tells the upstream where browsers reach it, in X-Forwarded-Proto,
	// X-Forwarded-Host and X-Forwarded-Prefix (/proxy/<slug>), so that the links it writes
	// (a paged list's next URL) lead back through the proxy. For the built-in sandboxes;
	// false for real APIs, which are told nothing about Loupe or the browser.
	Forwarded bool
	// Sandbox says the upstream is Loupe's built-in sandbox: only then may the operations its
	// document marks x-loupe-sandbox-only be called (a real API has no such operations).
	Sandbox bool
	// Authorize, when set, gives the calling user's own credential (their OAuth 2.0 access
	// token): how to add it to the call, or nil to send Apply's. An error refuses the call: an
	// *AuthError with its status and words, any other with 502. Nil: Apply for everyone.
	Authorize func(ctx context.Context, user string) (func(*http.Request), error)
}

// OpAuth is how one operation's credentials are added.
type OpAuth struct {
	// Apply adds them; nil sends none (security: [], or an optional requirement).
	Apply func(*http.Request)
	// Missing, when set, says which credentials the operation needs that are not configured,
	// or that the proxy cannot send, and what to configure: its calls are refused with it.
	Missing string
}

// Config configures a Proxy.
type Config struct {
	// APIs are the proxied APIs, keyed by slug. A slug not listed is answered 404.
	APIs map[string]*API
	// Catalog supplies each API's documented operations (method and path template), to name
	// the operation of a call. Nil means none is documented.
	Catalog *catalog.Catalog
	// Transport performs the upstream requests. Nil means NewTransport().
	Transport http.RoundTripper
	// User names the user making a request and says whether they are an admin. Nil means
	// everyone is the admin "local" (access mode none).
	User func(*http.Request) (name string, admin bool)
	// Rate and Burst limit proxied calls per user (golang.org/x/time/rate). Rate <= 0 means
	// no limit.
	Rate  rate.Limit
	Burst int
	// RateKey names whose token bucket a call takes from, and whether that is a signed-in
	// user's (never evicted to make room for anonymous clients'): in access mode none, where
	// everyone is "local", the client address, so that one client cannot use up everyone's
	// rate. Nil means per user, every one signed in.
	RateKey func(*http.Request) (key string, signedIn bool)
	// Limiter holds the token buckets when they are not this process's: server/internal/pgrate
	// keeps them in the shared database, so that the rate holds across replicas. Rate and
	// Burst must still be what it allows (the 429 says them). When it cannot answer, a call
	// takes from this process's own buckets instead: a database away limits each replica to
	// the rate rather than stopping calls that need no database. Nil means buckets in this
	// process when Rate > 0.
	Limiter RateLimiter
	// MaxBody caps a request body in bytes; a larger one is answered 413. Zero means 10 MiB.
	MaxBody int64
	// UpstreamTimeout is how long to wait for response headers before answering 504. Zero
	// means 30s.
	UpstreamTimeout time.Duration
	// StreamIdleTimeout ends a response whose upstream sends nothing for this long: an event
	// stream with a closing error event, any other body by cutting it. Zero means 60s. There
	// is no total time-out: a stream lasts as long as it keeps sending.
	StreamIdleTimeout time.Duration
	// TrustedOrigins are origins besides the request's own host whose browser calls are
	// accepted (the public URL behind a proxy). Cross-origin browser calls are refused;
	// calls without Origin or Sec-Fetch-Site (official client libraries) are accepted.
	TrustedOrigins []string
	// StripHeaders are request headers never sent upstream, such as the trusted user header.
	StripHeaders []string
	// PublicURL is where browsers reach Loupe, as configured (server.public_url); the
	// Forwarded headers name it. Nil means the host and scheme each request came to.
	PublicURL *url.URL
	// Audit receives one line per proxied call. Nil means slog.Default().
	Audit *slog.Logger
	// Secrets are secrets besides the APIs' that come and go while the proxy serves (users'
	// OAuth tokens); they are masked like the APIs' Secrets. Nil means none.
	Secrets *SecretSet
}

// Proxy is the /proxy/ handler. Its APIs can be replaced while it serves (SetAPIs).
type Proxy struct {
	cfg    Config
	apis   atomic.Pointer[apiTable]
	rp     *httputil.ReverseProxy
	cop    *http.CrossOriginProtection
	limits RateLimiter
	// auditTo is cfg.Audit's handler, which audit hands each line to.
	auditTo slog.Handler
	// auditWhoT holds auditTo with a user's, an API's and an operation's attributes added
	// (auditWho); auditWhoMu serializes its additions.
	auditWhoT  atomic.Pointer[map[auditKey]slog.Handler]
	auditWhoMu sync.Mutex
	// strip are cfg.StripHeaders in canonical form, deleted from every upstream request.
	strip []string

	maskMu sync.Mutex
	static []string               // the APIs' Secrets, as SetAPIs last gave them
	mask   atomic.Pointer[masker] // static and cfg.Secrets; nil masks nothing
}

// apiTable is the immutable per-slug state swapped by SetAPIs.
type apiTable map[string]*upstream

// upstream is an API prepared for serving.
type upstream struct {
	slug string
	API
	ops     *operations
	allow   map[string]bool
	admin   map[string]bool
	sbOnly  map[string]bool // operations marked x-loupe-sandbox-only
	basePth string          // BaseURL.Path without its trailing slash
	// credentialHeaders (in canonical form) and credentialParams are the browser's headers
	// and query parameters never sent upstream: those that carry credentials.
	credentialHeaders []string
	credentialParams  map[string]bool
	// forwardedPrefix is X-Forwarded-Prefix (API.Forwarded): /proxy/<slug> under the public
	// URL's path, if one is configured.
	forwardedPrefix string
}

// copyBufferSize is the size of ReverseProxy's copy buffers. A response holds its buffer for
// as long as it lasts, an event stream for minutes: at 32 KB (io.Copy's size) 2,000 open chat
// streams held 64 MB of buffers that were mostly empty (an event is a few hundred bytes). 4 KB
// is what the server's own write buffer holds, so a large body still leaves in full writes.
const copyBufferSize = 4 << 10

// bufferPool reuses the copy buffers of ReverseProxy. It holds them as array pointers, which a
// buffer handed back converts to without an allocation (a *[]byte made for each Put was one).
type bufferPool struct{ sync.Pool }

func (b *bufferPool) Get() []byte { return b.Pool.Get().(*[copyBufferSize]byte)[:] }

func (b *bufferPool) Put(p []byte) {
	if len(p) == copyBufferSize { // only ever one of Get's
		b.Pool.Put((*[copyBufferSize]byte)(p))
	}
}

func newBufferPool() *bufferPool {
	return &bufferPool{sync.Pool{New: func() any { return new([copyBufferSize]byte) }}}
}

// NewTransport returns the upstream transport: the default one with enough idle connections
// per host that concurrent calls reuse them instead of reconnecting (the default keeps 2), and
// response headers capped at 1 MiB.
func NewTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 1024
	t.MaxIdleConnsPerHost = 256
	t.IdleConnTimeout = 90 * time.Second
	t.MaxResponseHeaderBytes = 1 << 20 // net/http's default is 10 MiB
	return t
}

// New returns a proxy.
func New(cfg Config) *Proxy {
	if cfg.Transport == nil {
		cfg.Transport = NewTransport()
	}
	if cfg.MaxBody == 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.UpstreamTimeout == 0 {
		cfg.UpstreamTimeout = DefaultUpstreamTimeout
	}
	if cfg.StreamIdleTimeout == 0 {
		cfg.StreamIdleTimeout = DefaultStreamIdleTimeout
	}
	if cfg.Audit == nil {
		cfg.Audit = slog.Default()
	}
	p := &Proxy{cfg: cfg, cop: http.NewCrossOriginProtection(), auditTo: cfg.Audit.Handler()}
	for _, name := range cfg.StripHeaders {
		if name != "" {
			p.strip = append(p.strip, textproto.CanonicalMIMEHeaderKey(name))
		}
	}
	for _, o := range cfg.TrustedOrigins {
		_ = p.cop.AddTrustedOrigin(o) // validated by config; a bad one is simply not trusted
	}
	switch {
	case cfg.Limiter != nil:
		p.limits = &fallbackLimiter{shared: cfg.Limiter, local: newLimiters(cfg.Rate, cfg.Burst)}
	case cfg.Rate > 0:
		p.limits = newLimiters(cfg.Rate, cfg.Burst)
	}
	if cfg.Secrets != nil {
		cfg.Secrets.watch(p.rebuildMasker)
	}
	p.SetAPIs(cfg.APIs, cfg.Catalog)
	p.rp = &httputil.ReverseProxy{
		Rewrite:        p.rewrite,
		Transport:      &timeoutTransport{next: cfg.Transport, headerTimeout: cfg.UpstreamTimeout, idleTimeout: cfg.StreamIdleTimeout},
		BufferPool:     newBufferPool(),
		ModifyResponse: p.modifyResponse,
		ErrorHandler:   p.errorHandler,
		ErrorLog:       log.New(&slogWriter{p: p}, "", 0),
	}
	return p
}

// SetAPIs replaces the proxied APIs and their documented operations, for example after the
// configuration was reloaded with rotated credentials. Calls in flight finish with the old ones.
func (p *Proxy) SetAPIs(apis map[string]*API, cat *catalog.Catalog) {
	// Every response is masked for every API's secrets: an upstream may know another's (the
	// sandboxes share one by default), and masking costs little.
	var secrets []string
	for _, a := range apis {
		secrets = append(secrets, a.Secrets...)
	}
	p.maskMu.Lock()
	p.static = secrets
	p.maskMu.Unlock()
	p.rebuildMasker()
	t := apiTable{}
	for slug, a := range apis {
		u := &upstream{slug: slug, API: *a, allow: set(a.Allow), admin: set(a.AdminOnly),
			credentialParams: set(append([]string{"key", "access_token", "oauth_token"}, a.CredentialParams...))}
		if a.CredentialParam != "" {
			u.credentialParams[a.CredentialParam] = true
		}
		for _, h := range append([]string{a.CredentialHeader}, a.CredentialHeaders...) {
			if h != "" {
				u.credentialHeaders = append(u.credentialHeaders, textproto.CanonicalMIMEHeaderKey(h))
			}
		}
		if a.BaseURL != nil {
			u.basePth = trimSlash(a.BaseURL.Path)
		}
		u.forwardedPrefix = Prefix + slug
		if p.cfg.PublicURL != nil {
			u.forwardedPrefix = trimSlash(p.cfg.PublicURL.Path) + u.forwardedPrefix
		}
		var api *catalog.API
		if cat != nil {
			api = cat.API(slug)
		}
		u.ops = newOperations(api)
		u.sbOnly = sandboxOnly(api)
		t[slug] = u
	}
	p.apis.Store(&t)
}

// sandboxOnly lists the operations of api marked x-loupe-sandbox-only: true.
func sandboxOnly(api *catalog.API) map[string]bool {
	out := map[string]bool{}
	if api == nil {
		return out
	}
	for _, op := range api.Operations {
		if string(op.Extensions["x-loupe-sandbox-only"]) == "true" {
			out[op.ID] = true
		}
	}
	return out
}

func set(ids []string) map[string]bool {
	if len(ids) == 0 {
		return nil
	}
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

func trimSlash(s string) string {
	for len(s) > 0 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	return s
}
