// Package access decides who may use Loupe: everyone (mode none, for a loopback address), the
// users of a users file who logged in (mode users), or whoever an authenticating proxy in front
// of Loupe names in a trusted header (mode header). It also sets the security headers of every
// response.
package access

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// Modes, as in the configuration.
const (
	ModeNone   = "none"
	ModeUsers  = "users"
	ModeHeader = "header"
)

// Options configures a Gate.
type Options struct {
	// Mode is ModeNone, ModeUsers or ModeHeader. Empty means ModeNone.
	Mode string
	// UsersFile is the users file of ModeUsers: "name:bcrypt-hash" lines. Required there.
	UsersFile string
	// Header names the user in ModeHeader. Empty means X-Forwarded-User.
	Header string
	// TrustedProxies are where Header is accepted from in ModeHeader; a request from
	// anywhere else is refused. Required there.
	TrustedProxies []netip.Prefix
	// Admins may call the operations an API keeps to admins. In ModeNone everyone is.
	Admins []string
	// SessionTTL is how long a login lasts. Zero means 12h.
	SessionTTL time.Duration
	// Sessions keeps the logins of ModeUsers on the server (a logout ends one for good). Nil
	// means in memory (NewMemorySessions): a restart logs everyone out.
	Sessions SessionStore
	// DeviceKey signs the device cookies (HMAC-SHA256; derived from the server's secret key),
	// so that a browser stays known across restarts and replicas. Nil means a key made at
	// start.
	DeviceKey []byte
	// Throttle slows password guessing per client address, per account and per trusted
	// browser (see Throttle). Nil means in memory (NewMemoryThrottle with DefaultDelays,
	// DefaultThrottleAddresses). A CheckedThrottle's errors answer the login 503.
	Throttle Throttle
	// Now is the clock of sessions and the throttle. Nil means time.Now.
	Now func() time.Time
	// Secure marks the session cookie Secure (Loupe is reached over https).
	Secure bool
	// Logger receives login failures. Nil means slog.Default().
	Logger *slog.Logger
}

// Gate is the access-control middleware. Its users file can be re-read (Reload).
type Gate struct {
	opts     Options
	users    atomic.Pointer[users]
	admins   atomic.Pointer[[]string]
	sessions SessionStore
	throttle Throttle
	devices  *devices
}

// User is who made a request.
type User struct {
	Name  string
	Admin bool
}

type userKey struct{}

// New returns a gate; in ModeUsers it reads the users file.
func New(opts Options) (*Gate, error) {
	if opts.Mode == "" {
		opts.Mode = ModeNone
	}
	if opts.Header == "" {
		opts.Header = "X-Forwarded-User"
	}
	if opts.SessionTTL == 0 {
		opts.SessionTTL = 12 * time.Hour
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Sessions == nil {
		opts.Sessions = NewMemorySessions()
	}
	if opts.Throttle == nil {
		opts.Throttle = NewMemoryThrottle(DefaultDelays, DefaultThrottleAddresses)
	}
	g := &Gate{opts: opts, sessions: opts.Sessions, throttle: opts.Throttle, devices: newDevices(opts.DeviceKey)}
	switch opts.Mode {
	case ModeNone:
	case ModeUsers:
	case ModeHeader:
		if len(opts.TrustedProxies) == 0 {
			return nil, fmt.Errorf("server.access.trusted_proxies: expected at least one address with mode header")
		}
	default:
		return nil, fmt.Errorf("server.access.mode: expected none, users or header, got %q", opts.Mode)
	}
	if err := g.Reload(opts); err != nil {
		return nil, err
	}
	return g, nil
}

// Reload re-reads the users file and the admins; the mode stays.
func (g *Gate) Reload(opts Options) error {
	if g.opts.Mode == ModeUsers {
		u, err := readUsers(opts.UsersFile)
		if err != nil {
			return fmt.Errorf("server.access.users_file: %w", err)
		}
		g.users.Store(u)
	}
	admins := slices.Clone(opts.Admins)
	g.admins.Store(&admins)
	return nil
}

// User returns the name of the request's user and whether they are an admin; it fits
// proxy.Config.User.
func (g *Gate) User(r *http.Request) (string, bool) {
	if u, ok := r.Context().Value(userKey{}).(User); ok {
		return u.Name, u.Admin
	}
	return "anonymous", false
}

// Wrap lets through the requests of known users, with the user in the context. It serves
// /login and /logout in ModeUsers, and /session (who is signed in) in every mode; /healthz is
// always open.
func (g *Gate) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" {
			next.ServeHTTP(w, r)
			return
		}
		var name string
		switch g.opts.Mode {
		case ModeNone:
			g.serveUser(w, r, next, User{Name: "local", Admin: true})
			return
		case ModeUsers:
			switch r.URL.Path {
			case loginPath:
				g.serveLogin(w, r)
				return
			case logoutPath:
				g.serveLogout(w, r)
				return
			}
			var err error
			if name, err = g.sessionUser(r); err != nil {
				g.opts.Logger.Error("checking a login", "error", err)
				storeAway(w, r, "check your login")
				return
			}
			if name != "" && !g.users.Load().has(name) {
				name = "" // removed from the users file since
			}
			if name == "" {
				g.askLogin(w, r)
				return
			}
		case ModeHeader:
			var ok bool
			if name, ok = g.headerUser(r); !ok {
				deny(w, r, http.StatusForbidden, "requests must come through the authenticating proxy", "server.access.trusted_proxies")
				return
			}
			if name == "" {
				deny(w, r, http.StatusUnauthorized, "the authenticating proxy named no user", "server.access.header and the proxy's user header")
				return
			}
		}
		g.serveUser(w, r, next, User{Name: name, Admin: slices.Contains(*g.admins.Load(), name)})
	})
}

// serveUser serves a request the gate let through: /session itself, anything else with next,
// the user in the context.
func (g *Gate) serveUser(w http.ResponseWriter, r *http.Request, next http.Handler, u User) {
	if r.URL.Path == sessionPath {
		g.serveSession(w, r, u)
		return
	}
	next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), userKey{}, u)))
}

// headerUser reads the trusted header; ok is false when the request does not come from a
// trusted proxy.
func (g *Gate) headerUser(r *http.Request) (string, bool) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return "", false
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return "", false
	}
	a = a.Unmap()
	trusted := slices.ContainsFunc(g.opts.TrustedProxies, func(p netip.Prefix) bool { return p.Contains(a) })
	if !trusted {
		return "", false
	}
	name := strings.TrimSpace(r.Header.Get(g.opts.Header))
	if len(name) > 256 || strings.ContainsAny(name, "\r\n\x00") {
		return "", true
	}
	return name, true
}

// deny answers JSON for API paths and a short page for the rest.
func deny(w http.ResponseWriter, r *http.Request, status int, msg, check string) {
	w.Header().Set("Cache-Control", "no-store")
	if wantsJSON(r) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": msg, "check": check, "source": "loupe access"})
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, "%s (check %s)\n", msg, check)
}

func wantsJSON(r *http.Request) bool {
	p := r.URL.Path
	return strings.HasPrefix(p, "/proxy/") || strings.HasPrefix(p, "/sandbox/") || p == "/catalog.json" ||
		strings.HasPrefix(p, "/openapi/") || strings.Contains(r.Header.Get("Accept"), "application/json")
}
