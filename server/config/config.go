// Package config is Loupe's configuration: the server's address, public URL, access mode and
// limits, and for every API its base URL, its credential and how it is sent, and which
// operations are allowed. It is read from a YAML file (see loupe.example.yaml), then from
// environment variables, and validated before the server starts; an invalid value stops the
// start with a message naming the key and what is expected.
package config

import (
	"time"

	"loupe/content"
	"loupe/server/proxy"
)

// Config is the whole configuration. The zero value is not valid; start from Default.
type Config struct {
	// Server configures the listener, the access mode and the proxy's limits.
	Server Server `yaml:"server"`
	// APIs configures each API, keyed by slug: a built-in API (content/openapi/<slug>.yaml; a
	// slug not listed uses its built-in sandbox), or an API of your own, whose document
	// API.OpenAPI names. After loading, every built-in API has an entry.
	APIs map[string]*API `yaml:"apis"`
	// Walkthroughs names walkthroughs of your own (walkthroughs.go). Nil means the built-in
	// ones only.
	Walkthroughs []Walkthrough `yaml:"walkthroughs"`

	// Path is the file the configuration was read from; empty when there was none.
	Path string `yaml:"-"`

	lookupEnv func(string) (string, bool) // the environment read by Parse; nil means os.LookupEnv
}

// Server configures the HTTP server.
type Server struct {
	// Addr is the address to listen on, host:port. Default 127.0.0.1:8080. A non-loopback
	// address with real credentials configured needs an access mode.
	Addr string `yaml:"addr"`
	// PublicURL is the URL browsers use to reach Loupe when it differs from http://Addr, such
	// as behind a TLS-terminating proxy. It is a trusted origin for cross-origin checks, and an
	// https URL marks the session cookie Secure.
	PublicURL string `yaml:"public_url"`
	// Access says who may use Loupe.
	Access Access `yaml:"access"`
	// Limits bounds what one user and one call may cost.
	Limits Limits `yaml:"limits"`
	// DataDir is where the built-in sandboxes keep each user's changes (the file
	// sandbox-state.db), and the server its login sessions, OAuth grants, the script
	// sandbox's issued tokens (server.db) and, unless SecretKey says otherwise, its secret key
	// (secret-key), so they survive a restart and a crash; the -data flag overrides it. Empty
	// means in memory only: a restart starts every sandbox from its seed and logs everyone out.
	DataDir string `yaml:"data_dir"`
	// Database is the address of a PostgreSQL database, postgres://user:password@host:5432/name
	// (LOUPE_DATABASE_URL overrides it), where the sandboxes' state and the login sessions
	// are kept instead, shared by every Loupe replica that names it; its schema is migrated at
	// start. Empty (the default): DataDir's file or memory, for one Loupe. The password is
	// never logged.
	Database string `yaml:"database"`
	// Sandbox bounds the built-in sandboxes' per-user state.
	Sandbox Sandbox `yaml:"sandbox"`
	// SecretKey is the path of a file holding the server's secret key (at least 32 bytes,
	// such as the output of openssl rand -base64 48), from which every key the server uses is
	// derived: the seal of sign-ins in progress, the device cookies, the script sandbox's
	// tokens, the encryption of OAuth grants at rest. Replicas share it so that each accepts
	// the others' cookies and tokens. LOUPE_SECRET_KEY (the key itself) overrides it. Empty
	// with neither means a key made on the first start and kept in DataDir (the file
	// secret-key), or, without a data directory, one made at every start.
	SecretKey string `yaml:"secret_key"`
	// SecretKeyValue is the key itself, from LOUPE_SECRET_KEY only (a key is never written in
	// the configuration file, which is copied more freely than a key file). Empty when unset.
	SecretKeyValue string `yaml:"-"`
}

// Sandbox bounds the built-in sandboxes' per-user state (server/sandbox/state): each user (a
// signed-in name, an anonymous browser's cookie, a client's credential) has their own changes
// over the shared seed. Zero values mean the defaults.
type Sandbox struct {
	// IdleTimeout evicts a user's live sandbox state after this long without a call; with
	// server.data_dir the changes stay on disk and come back on the next call, without it they
	// are forgotten. Default 30m.
	IdleTimeout time.Duration `yaml:"idle_timeout"`
	// MaxSessions is how many anonymous users (mode none) may have live sandbox state at once;
	// one more evicts the one unused longest (without server.data_dir its changes are
	// forgotten). Signed-in users have as many places of their own, which no anonymous user
	// takes. A user gets live state on their first change, never by reading. With
	// server.data_dir, 10 times as many anonymous users keep their changes on disk, the one
	// unused longest forgotten past it. Default 1000.
	MaxSessions int `yaml:"max_sessions"`
	// MaxSessionsPerClient is how many of those one client address may hold (behind
	// server.access.trusted_proxies, the address the proxies name); one more evicts that
	// address's own unused longest, so one client cannot push everyone else out. Raise it when
	// many users share one address (an office behind NAT). Default 20.
	MaxSessionsPerClient int `yaml:"max_sessions_per_client"`
	// MaxTotalBytes bounds the stored changes of the anonymous users with live state
	// together, in bytes; past it the one unused longest is evicted. Default 268435456 (256
	// MiB), and never below MaxBytes.
	MaxTotalBytes int64 `yaml:"max_total_bytes"`
	// MaxBytes bounds one user's stored changes across the sandboxes, in bytes; a change past
	// it gets 507 with a hint to Reset. Default 4194304 (4 MiB).
	MaxBytes int64 `yaml:"max_bytes"`
	// ChatTokensPerSecond is how fast the built-in chat model streams its answers, in tokens
	// per second: a model's pace, slow enough to watch an answer grow (and, in a test, to cut
	// it mid-way), fast enough not to wait long. Read at start. Default 40.
	ChatTokensPerSecond float64 `yaml:"chat_tokens_per_second"`
}

// Access modes.
const (
	// AccessNone lets everyone in: the default, for a loopback address.
	AccessNone = "none"
	// AccessUsers asks for a name and password from a users file (bcrypt, htpasswd -B format).
	AccessUsers = "users"
	// AccessHeader trusts a user-name header set by an authenticating proxy in front of Loupe
	// (such as oauth2-proxy), accepted only from TrustedProxies.
	AccessHeader = "header"
)

// Access configures who may use Loupe.
type Access struct {
	// Mode is none, users or header. Default none.
	Mode string `yaml:"mode"`
	// UsersFile is the users file of mode users: one "name:bcrypt-hash" line per user.
	UsersFile string `yaml:"users_file"`
	// Header is the user-name header of mode header. Default X-Forwarded-User.
	Header string `yaml:"header"`
	// TrustedProxies are the addresses or CIDR prefixes of the reverse proxies in front of
	// Loupe. In every mode, a request from one of them is counted against the client address
	// the proxies wrote in ClientAddressHeader (the per-client limits on logins, calls and
	// sandbox sessions), and a request from anywhere else against its own address, whatever
	// header it sends. In mode header the user header is accepted from them only, and a request
	// from anywhere else is refused.
	TrustedProxies []string `yaml:"trusted_proxies"`
	// ClientAddressHeader is the header the trusted proxies put the client's address in:
	// X-Forwarded-For (default; nginx, Caddy, Traefik, Envoy) or Forwarded (RFC 7239). It is
	// read right to left past the trusted proxies, so name the one your proxies set themselves:
	// one they pass through unchanged carries whatever a client wrote.
	ClientAddressHeader string `yaml:"client_address_header"`
	// Admins are the users who may call operations an API keeps to admins (API.AdminOnly). In
	// mode none the single local user is an admin.
	Admins []string `yaml:"admins"`
	// SessionTTL is how long a login lasts (mode users). Default 12h.
	SessionTTL time.Duration `yaml:"session_ttl"`
}

// Limits bounds proxied calls.
type Limits struct {
	// Rate is the sustained number of proxied calls per second allowed to one user. Default 50
	// (room for fetching every page of a list); a negative value turns rate limiting off.
	Rate float64 `yaml:"rate"`
	// Burst is how many calls one user may make at once above Rate. Default 100.
	Burst int `yaml:"burst"`
	// MaxBody caps a proxied request's body, in bytes. Default 10485760 (10 MiB, room for a
	// few images sent to chat).
	MaxBody int64 `yaml:"max_body"`
	// UpstreamTimeout is how long to wait for an upstream's response headers. Default 60s.
	UpstreamTimeout time.Duration `yaml:"upstream_timeout"`
	// StreamIdleTimeout ends a streamed (SSE) response, or any response body, when the
	// upstream sends nothing for this long. There is no limit on a stream's total length.
	// Default 60s.
	StreamIdleTimeout time.Duration `yaml:"stream_idle_timeout"`
	// MaxDocument caps the size of an API of your own's OpenAPI document, in bytes: a larger
	// one stops the start before it is read, naming this key. Default 16777216 (16 MiB: every
	// document of the APIs.guru directory but Microsoft Graph's, which need gigabytes).
	MaxDocument int64 `yaml:"max_document"`
	// DocumentBuildTimeout is how long compiling one such document may take before the start
	// is given up, naming this key. Default 60s.
	DocumentBuildTimeout time.Duration `yaml:"document_build_timeout"`
}

// API configures one API.
type API struct {
	// BaseURL is where the proxy sends this API's calls: /proxy/<slug>/<path> goes to
	// BaseURL + <path>, and nowhere else. Empty means the built-in sandbox; for an API of
	// your own (OpenAPI set), the sandbox built from its document (see Sandbox).
	BaseURL string `yaml:"base_url"`
	// OpenAPI is the path of an OpenAPI 3.0 or 3.1 document (YAML or JSON) that adds an API
	// of your own under this slug, relative to the working directory like credential.file.
	// Its operations make the forms, the docs and the proxy's allow-list; its security
	// scheme says how the credential is sent. Empty for the built-in APIs, whose documents
	// Loupe ships.
	OpenAPI string `yaml:"openapi"`
	// Credential is the secret the proxy adds to every call, and how. For an API of your own
	// with send unset, it is the credential of the document's first security scheme, sent to
	// the operations that scheme secures (as Credentials would).
	Credential Credential `yaml:"credential"`
	// Credentials are the secrets of an API of your own's security schemes, keyed by the
	// scheme's name in its document (components.securitySchemes). Each operation is sent the
	// credentials of the first of its security requirements whose every scheme has one (all
	// of them: several headers or query parameters at once), placed as each scheme says
	// unless send, name and prefix say otherwise; an operation with security: [] is sent none.
	// Nil: only Credential.
	Credentials map[string]*Credential `yaml:"credentials"`
	// Allow lists the operationIds that may be called. Empty allows every documented one.
	Allow []string `yaml:"allow"`
	// AdminOnly lists operationIds only admins may call, such as mutating operations.
	AdminOnly []string `yaml:"admin_only"`
	// AllowUndocumented lets calls through whose method and path match no documented
	// operation. Default false: they are refused.
	AllowUndocumented bool `yaml:"allow_undocumented"`
	// Sandbox says whether an API of your own with no base_url answers from the sandbox built
	// from its document (server/sandbox/fromdoc: validated requests, answers from its
	// examples or schemas, collections kept per user). Nil (unset) means true while base_url
	// is empty; false refuses its calls with advice until base_url is set. It cannot be true
	// with a base_url. A built-in API has its own sandbox and ignores it.
	Sandbox *bool `yaml:"sandbox"`
	// SandboxHints override what that sandbox infers of the document's collections, with the
	// keys of the document's x-loupe-sandbox extension: resources (collection, item, id),
	// stateless (operationIds) and operations (operationId: {action, resource}). Nil means
	// none.
	SandboxHints map[string]any `yaml:"sandbox_hints"`
}

// IsSandbox reports whether the API goes to a built-in sandbox: a built-in API with no base
// URL, or an API of your own with no base URL whose sandbox is not turned off.
func (a *API) IsSandbox() bool {
	return a.BaseURL == "" && (a.OpenAPI == "" || a.Sandbox == nil || *a.Sandbox)
}

// IsOwnSandbox reports whether the API is one of your own answered by the sandbox built from
// its document.
func (a *API) IsOwnSandbox() bool { return a.OpenAPI != "" && a.IsSandbox() }

// BuiltIn lists the slugs of the built-in APIs, derived from the documents Loupe ships
// (content/openapi/<slug>.yaml), sorted.
func BuiltIn() []string { return content.Slugs() }

// Default returns the configuration used when there is no file: loopback, no access control,
// every API on its built-in sandbox with the documented sandbox credential.
func Default() *Config { return DefaultOf(BuiltIn()...) }

// DefaultOf is Default with only the built-in APIs slugs: what a static explorer's module,
// which holds one API's sandbox, needs, without the content listing every API (which would link
// every API's documents and datasets into the module).
func DefaultOf(slugs ...string) *Config {
	c := &Config{APIs: map[string]*API{}}
	for _, slug := range slugs {
		c.APIs[slug] = &API{}
	}
	c.applyDefaultsExceptAPIs()
	return c
}

// applyDefaults fills every unset field with its default, every built-in API included.
func (c *Config) applyDefaults() {
	if c.APIs == nil {
		c.APIs = map[string]*API{}
	}
	for _, slug := range BuiltIn() {
		if c.APIs[slug] == nil {
			c.APIs[slug] = &API{}
		}
	}
	c.applyDefaultsExceptAPIs()
}

// applyDefaultsExceptAPIs fills every unset field with its default, adding no API.
func (c *Config) applyDefaultsExceptAPIs() {
	s := &c.Server
	if s.Addr == "" {
		s.Addr = "127.0.0.1:8080"
	}
	if s.Access.Mode == "" {
		s.Access.Mode = AccessNone
	}
	if s.Access.Header == "" {
		s.Access.Header = "X-Forwarded-User"
	}
	if s.Access.ClientAddressHeader == "" {
		s.Access.ClientAddressHeader = "X-Forwarded-For"
	}
	if s.Access.SessionTTL == 0 {
		s.Access.SessionTTL = 12 * time.Hour
	}
	l := &s.Limits
	if l.Rate == 0 {
		l.Rate = 50
	}
	if l.Burst == 0 {
		l.Burst = 100
	}
	if l.MaxBody == 0 {
		l.MaxBody = proxy.DefaultMaxBody
	}
	if l.UpstreamTimeout == 0 {
		l.UpstreamTimeout = proxy.DefaultUpstreamTimeout
	}
	if l.StreamIdleTimeout == 0 {
		l.StreamIdleTimeout = proxy.DefaultStreamIdleTimeout
	}
	if l.MaxDocument == 0 {
		l.MaxDocument = 16 << 20
	}
	if l.DocumentBuildTimeout == 0 {
		l.DocumentBuildTimeout = time.Minute
	}
	sb := &s.Sandbox
	if sb.IdleTimeout == 0 {
		sb.IdleTimeout = 30 * time.Minute
	}
	if sb.MaxSessions == 0 {
		sb.MaxSessions = 1000
	}
	if sb.MaxSessionsPerClient == 0 {
		sb.MaxSessionsPerClient = 20
	}
	if sb.MaxTotalBytes == 0 {
		sb.MaxTotalBytes = 256 << 20
	}
	if sb.MaxBytes == 0 {
		sb.MaxBytes = 4 << 20
	}
	if sb.ChatTokensPerSecond == 0 {
		sb.ChatTokensPerSecond = 40
	}
	if c.APIs == nil {
		c.APIs = map[string]*API{}
	}
	for slug, a := range c.APIs {
		if a != nil {
			a.applyOAuthDefaults(slug) // before the scheme's defaults: script's sandbox signs in
			a.Credential.applyDefaults()
			for _, cr := range a.Credentials {
				if cr != nil {
					cr.applyDefaults()
				}
			}
		}
	}
}
