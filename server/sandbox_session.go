package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"loupe/server/access"
	"loupe/server/config"
	"loupe/server/internal/clientip"
	"loupe/server/proxy"
	"loupe/server/sandbox/state"
	"loupe/server/sandbox/state/boltstore"
	"loupe/server/sandbox/state/pgstore"
)

// newRegistry builds the sandboxes' per-session state: in PostgreSQL when server.database is
// set (pgstore, shared by every replica naming it), else on disk in server.data_dir when it is
// set (boltstore), else in memory, evicted sessions forgotten; bounded by server.sandbox. store
// names the store in use for the start log, without a password. now is the registry's
// clock (nil means time.Now).
func newRegistry(s config.Server, now func() time.Time) (reg *state.Registry, store string, err error) {
	limits := state.Limits{Idle: s.Sandbox.IdleTimeout, MaxSessions: s.Sandbox.MaxSessions, MaxSessionsPerClient: s.Sandbox.MaxSessionsPerClient,
		MaxBytes: s.Sandbox.MaxBytes, MaxTotalBytes: s.Sandbox.MaxTotalBytes}
	switch {
	case s.Database != "":
		ctx, cancel := context.WithTimeout(context.Background(), databaseTimeout)
		defer cancel()
		st, err := pgstore.Open(ctx, s.Database)
		if err != nil {
			return nil, "", err // pgdb's error names server.database and says what to fix
		}
		return state.NewRegistry(st, state.Options{Limits: limits, Now: now}), "postgresql " + st.Where(), nil
	case s.DataDir != "":
		st, err := boltstore.Open(s.DataDir)
		if err != nil {
			return nil, "", fmt.Errorf("server.data_dir: %w", err)
		}
		return state.NewRegistry(st, state.Options{Limits: limits, Now: now}), "bbolt " + st.Path(), nil
	}
	return state.NewRegistry(state.NewMemory(), state.Options{Limits: limits, DropEvicted: true, Now: now}), "memory (nothing survives a restart)", nil
}

// databaseTimeout bounds connecting to server.database and migrating it at start.
const databaseTimeout = 30 * time.Second

// withSandboxSession names the sandbox session of every call to a sandbox, through the proxy
// (/proxy/) or directly (/sandbox/), in the request's context (state.WithSession):
//
//   - a signed-in user (access modes users and header) by name;
//   - in mode none, a browser by its loupe_sandbox cookie, set on its first call;
//   - in mode none, a client without the cookie (an official client pointed at /sandbox/<slug>
//     or /proxy/<slug>) by a hash of the credential it sends (the Authorization header, or the
//     key or access_token parameter); clients that send the same credential share a session;
//   - in mode none, a program that sends neither (curl, a snippet, an official client pointed at
//     /proxy/<slug>, whose credential the proxy adds) by its address (the client address the
//     trusted proxies name, clientip): it keeps no cookies, and its calls must still see each
//     other's changes. A browser is told apart by the Sec-Fetch-Site header every browser sends
//     on its requests (Node's fetch, which Redocly Respect and the APIs' JavaScript clients use,
//     sends Sec-Fetch-Mode but no Sec-Fetch-Site, and keeps no cookies: it is a program);
//   - a browser without the cookie gets a new one, and keeps its session as long as it sends it
//     back. The cookie costs the server nothing: the session takes a place in the registry on
//     its first change, never by reading (state.Registry).
//
// A Loupe-Sandbox-Session header from outside is removed: only the in-process transport between
// the proxy and the sandboxes carries it (routeTransport, state.TrustHeader).
func withSandboxSession(next http.Handler, gate *access.Gate, mode string, secure bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		state.StripHeader(r)
		direct := strings.HasPrefix(r.URL.Path, "/sandbox/")
		if !direct && !proxy.IsProxyRequest(r) {
			next.ServeHTTP(w, r)
			return
		}
		var session string
		if mode != config.AccessNone {
			name, _ := gate.User(r)
			session = state.UserSession(name)
		} else if c, err := r.Cookie(state.CookieName); err == nil {
			session, _ = state.CookieSession(c.Value)
		}
		if session == "" {
			if cred := credentialOf(r); cred != "" {
				session = state.CredentialSession(cred)
			}
		}
		if session == "" && r.Header.Get("Sec-Fetch-Site") == "" {
			session = state.CredentialSession("client-address\x00" + clientip.Of(r.Context()))
		}
		if session == "" {
			var c *http.Cookie
			session, c = state.NewCookie(secure)
			http.SetCookie(w, c)
		}
		next.ServeHTTP(w, r.WithContext(state.WithSession(r.Context(), session)))
	})
}

// credentialOf is the credential a direct sandbox call carries, as the sandboxes read it.
func credentialOf(r *http.Request) string {
	if a := r.Header.Get("Authorization"); a != "" {
		return a
	}
	for _, name := range []string{"key", "access_token"} {
		if v := queryValue(r.URL.RawQuery, name); v != "" {
			return name + "=" + v
		}
	}
	return ""
}

// queryValue is r.URL.Query().Get(name) for the raw query, without parsing the whole query
// into a map: the value of the first pair named name, as url.ParseQuery reads pairs (one
// holding a semicolon, or whose name or value does not unescape, is skipped); "" when there is
// none. Only the pairs whose raw name could be name are unescaped.
func queryValue(raw, name string) string {
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" || strings.Contains(pair, ";") {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		if len(k) < len(name) { // an escape only makes a name longer
			continue
		}
		if k != name {
			if !strings.ContainsAny(k, "%+") {
				continue
			}
			if uk, err := url.QueryUnescape(k); err != nil || uk != name {
				continue
			}
		}
		uv, err := url.QueryUnescape(v)
		if err != nil {
			continue
		}
		return uv
	}
	return ""
}
