package script

import (
	"cmp"
	"crypto/rand"
	"encoding/base64"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"loupe/server/internal/seal"
)

// The sandbox's own OAuth 2.0 authorization server (RFC 6749 authorization code with PKCE,
// RFC 8414 metadata, RFC 7009 revocation) lets a client sign in with no Google account: it
// signs in one fixed account, SandboxAccount, after a consent page, and issues opaque access
// tokens that the API methods check against their scopes. Its state lives in memory, one per
// handler, and its grants and access tokens also in Options.Tokens when given (oauth_kept.go).

// OAuthClient is a client registered with the sandbox's authorization server.
type OAuthClient struct {
	// ID is the client_id. Required.
	ID string
	// Secret is the client_secret the token endpoint checks (HTTP Basic or form). Required.
	Secret string
	// Name is what the consent page calls the client; empty means the ID.
	Name string
}

// The default client, registered when Options.OAuthClients is nil.
const (
	SandboxClientID     = "loupe-sandbox-client"
	SandboxClientSecret = "loupe-sandbox-secret"
)

// SandboxAccount is the account the sandbox signs in: the consent page names it and
// /oauth/userinfo answers it.
const SandboxAccount = "sandbox.user@loupe.example"

// sandboxSubject is the account's stable "sub".
const sandboxSubject = "100000000000000000001"

// mountPath is where the server mounts the sandbox; the issuer and endpoints are under it.
const mountPath = "/sandbox/script"

// Lifetimes of what the authorization server hands out.
const (
	defaultAccessTokenTTL = time.Hour
	codeTTL               = 60 * time.Second
	consentTTL            = 10 * time.Minute
)

// maxLive bounds the anonymous clients' codes and grants (each grant with its access tokens)
// and the answered consent requests: past it the least recently used anonymous one is
// forgotten, never a signed-in user's (oauth_tables.go). Tests lower it.
var maxLive = 10000

// authServer is the authorization server's configuration and in-memory state.
type authServer struct {
	clients map[string]OAuthClient
	now     func() time.Time
	ttl     time.Duration

	mu      sync.Mutex
	*tables // codes, grants (refresh tokens), access tokens, answered consents (oauth_tables.go)
}

// authRequest is a validated authorization request, bound to the consent page by its id.
type authRequest struct {
	client    OAuthClient
	redirect  string
	state     string
	challenge string // PKCE S256 code_challenge
	scopes    []string
	expires   time.Time
}

// authCode is an issued authorization code. A used one is kept until it expires so that a
// second use revokes what the first one obtained (RFC 6749 §4.1.2).
type authCode struct {
	req     authRequest
	expires time.Time
	used    bool
	refresh string // the refresh token the code was exchanged for
}

// grant is what a refresh token stands for: the client, the account and the granted scopes.
type grant struct {
	client  string
	account string
	scopes  []string
	issued  time.Time
}

// accessToken is an issued access token.
type accessToken struct {
	grant
	expires time.Time
	refresh string // the refresh token it came from
}

// newAuthServer builds the authorization server of opts.
func newAuthServer(opts Options, now func() time.Time) *authServer {
	clients := opts.OAuthClients
	if clients == nil {
		clients = []OAuthClient{{ID: SandboxClientID, Secret: SandboxClientSecret, Name: "Loupe"}}
	}
	sealer := seal.New()
	if opts.SealKey != nil {
		sealer = seal.NewKey(opts.SealKey)
	}
	var k *keeper
	if opts.Tokens != nil {
		k = &keeper{store: opts.Tokens, sealer: seal.NewKey(opts.TokenKey), log: cmp.Or(opts.Logger, slog.Default())}
		k.shared, _ = opts.Tokens.(SharedTokenStore)
	}
	as := &authServer{
		clients: map[string]OAuthClient{}, now: now, ttl: or(opts.AccessTokenTTL, defaultAccessTokenTTL),
		tables: newTables(now, sealer, k),
	}
	for _, c := range clients {
		if c.Name == "" {
			c.Name = c.ID
		}
		as.clients[c.ID] = c
	}
	return as
}

// serve answers the authorization server's paths and reports whether r was one of them.
func (as *authServer) serve(w http.ResponseWriter, r *http.Request) bool {
	switch r.URL.Path {
	case "/.well-known/oauth-authorization-server":
		as.serveMetadata(w, r)
	case "/oauth/authorize":
		as.serveAuthorize(w, r)
	case "/oauth/token":
		as.serveToken(w, r)
	case "/oauth/revoke":
		as.serveRevoke(w, r)
	case "/oauth/userinfo":
		as.serveUserinfo(w, r)
	default:
		return false
	}
	return true
}

// issuer is the authorization server's URL as the request reached it: its scheme (TLS or
// X-Forwarded-Proto), its Host and the mount path.
func issuer(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ","); strings.TrimSpace(p) != "" {
		scheme = strings.ToLower(strings.TrimSpace(p))
	}
	return scheme + "://" + r.Host + mountPath
}

// newSecret returns a random, URL-safe opaque string starting with prefix.
func newSecret(prefix string) string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return prefix + base64.RawURLEncoding.EncodeToString(b)
}

// sweep forgets expired codes and access tokens. The caller holds as.mu.
func (as *authServer) sweep(time.Time) { as.expire(as.ttl) }

// tokenState is what the resource check learns of a presented access token.
type tokenState int

const (
	tokenUnknown tokenState = iota // never issued, revoked, or not a token
	tokenExpired
	tokenValid
)

// lookup finds the access token tok and its granted scopes.
func (as *authServer) lookup(tok string) (tokenState, []string) {
	as.mu.Lock()
	defer as.mu.Unlock()
	at, ok := as.findAccess(tok)
	switch {
	case !ok:
		return tokenUnknown, nil
	case !as.now().Before(at.expires):
		return tokenExpired, nil
	}
	return tokenValid, at.scopes
}

// refreshOf is the refresh token the live access token tok was issued from, or "".
func (as *authServer) refreshOf(tok string) string {
	if tok == "" {
		return ""
	}
	as.mu.Lock()
	defer as.mu.Unlock()
	if at, ok := as.findAccess(tok); ok {
		return at.refresh
	}
	return ""
}

// errNotKept answers (503) a token request whose tokens the TokenStore did not keep: nothing
// was issued.
var errNotKept = &oauthError{Error: "server_error", Description: "The authorization server could not keep the token; nothing was issued. Try again."}

// issueAccess issues an access token for g from refresh token rt, its grant's; the grant's
// oldest access token goes past accessPerGrant. It fails, issuing nothing, when the
// TokenStore does not keep it. The caller holds as.mu.
func (as *authServer) issueAccess(g grant, rt string, by owner, now time.Time) (string, *accessToken, error) {
	tok := newSecret("sandbox-at.")
	at := &accessToken{grant: g, expires: now.Add(as.ttl), refresh: rt}
	if err := as.keeper.putAccess(tok, at, by.protected); err != nil {
		as.keeper.log.Error("script sandbox: an access token was not kept", "err", err)
		return "", nil, err
	}
	as.access.Put(tok, at, rt, by.protected)
	return tok, at, nil
}

// addGrant stores g under a new refresh token, which it returns, owned by by: past the bounds
// the least recently used of the owner's, or of the anonymous clients', is revoked. It fails,
// storing nothing, when the TokenStore does not keep it. The caller holds as.mu.
func (as *authServer) addGrant(g *grant, by owner) (string, error) {
	rt := newSecret("sandbox-rt.")
	if err := as.keeper.putGrant(rt, g, by); err != nil {
		as.keeper.log.Error("script sandbox: a grant was not kept", "err", err)
		return "", err
	}
	as.refresh.Put(rt, g, by.client, by.protected)
	return rt, nil
}

// revokeGrant forgets refresh token rt and every access token issued from it. The caller
// holds as.mu.
func (as *authServer) revokeGrant(rt string) {
	as.refresh.Delete(rt)
	as.access.DeleteClient(rt)
	as.keeper.deleteGrant(rt)
}
