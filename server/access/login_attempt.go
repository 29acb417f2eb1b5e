package access

import (
	"math"
	"net"
	"net/http"
	"strconv"
	"time"

	"loupe/server/internal/clientip"
)

// attempt checks a login form's name and password under the throttle, and on the right ones
// starts a session and marks the browser as the user's (device cookie).
//
// Which keys a login waits on and counts against:
//   - from a browser where the user logged in before (a valid device cookie for the name): that
//     browser's own key only, so a flood against the account or from the user's address does
//     not slow the user's own browsers;
//   - from anywhere else: the client address's key and, when the name is a user's, the
//     account's, so that many addresses together still guess one account slowly.
//
// A login that must wait is answered 429 with Retry-After before its password is checked (no
// bcrypt work), and the wait does not grow while it lasts. A throttle on a database that is
// away (CheckedThrottle) answers 503 before any password is checked: never a login unthrottled.
func (g *Gate) attempt(w http.ResponseWriter, r *http.Request, next, name, password string) {
	now := g.opts.Now()
	u := g.users.Load()
	var keys []string // what the attempt waits on and counts against
	var protected []bool
	if dev := g.devices.of(r, name); dev != "" {
		keys, protected = []string{"device:" + name + "\x00" + dev}, []bool{true}
	} else {
		keys, protected = []string{"address:" + clientKey(r)}, []bool{false}
		if u.has(name) {
			keys, protected = append(keys, "account:"+name), append(protected, true)
		}
	}
	var wait time.Duration
	for _, k := range keys {
		d, err := g.wait(k, now)
		if err != nil {
			g.opts.Logger.Error("login: checking the throttle", "user", name, "error", err)
			storeAway(w, r, "check your password")
			return
		}
		wait = max(wait, d)
	}
	if wait > 0 {
		secs := int(math.Ceil(wait.Seconds()))
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		g.renderLogin(w, http.StatusTooManyRequests, next, "Too many wrong passwords: try again in "+strconv.Itoa(secs)+" s.")
		return
	}
	if !u.check(name, password) {
		for i, k := range keys {
			if err := g.failed(k, protected[i], now); err != nil {
				g.opts.Logger.Error("login: counting a failure", "user", name, "error", err)
			}
		}
		g.opts.Logger.Warn("login failed", "user", name, "client", clientKey(r))
		g.renderLogin(w, http.StatusUnauthorized, next, "Wrong name or password.")
		return
	}
	for _, k := range keys {
		g.throttle.Succeeded(k)
	}
	id, err := g.sessions.Create(name, now.Add(g.opts.SessionTTL))
	if err != nil {
		g.opts.Logger.Error("login: starting a session", "user", name, "error", err)
		g.renderLogin(w, http.StatusServiceUnavailable, next, "Loupe could not start your session; try again.")
		return
	}
	http.SetCookie(w, sessionCookie(id, g.opts.SessionTTL, g.opts.Secure))
	http.SetCookie(w, g.devices.cookie(name, g.opts.Secure))
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// clientKey names r's client: the address the server resolved (clientip, behind trusted
// proxies the one they name), else the peer's.
func clientKey(r *http.Request) string {
	if k := clientip.Of(r.Context()); k != "" {
		return k
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
