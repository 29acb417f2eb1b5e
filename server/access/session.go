package access

import (
	"crypto/rand"
	"net/http"
	"sync"
	"time"

	"loupe/server/internal/bounded"
)

// cookieName is the session cookie. It is HttpOnly, so the app's code never sees it, and the
// proxy drops it before any upstream does.
const cookieName = "loupe_session"

// SessionStore keeps the login sessions of mode users on the server, so that a logout ends a
// session for good: its cookie names an entry, and an entry deleted (logout) or expired is
// refused. The in-memory store is the default (a restart logs everyone out); with a data
// directory the server keeps them in its bbolt file (server/internal/serverdb), and replicas
// sharing sessions implement it on a shared database. Implementations are safe for concurrent use.
type SessionStore interface {
	// Create starts a session of user that ends at expires and returns its ID: at least 128
	// random bits, URL-safe, which the session cookie carries.
	Create(user string, expires time.Time) (id string, err error)
	// Lookup returns the user of the session id, unless it is unknown, deleted or past its end
	// at now.
	Lookup(id string, now time.Time) (user string, ok bool)
	// Delete ends the session id; an unknown id is no error.
	Delete(id string)
}

// Bounds of the in-memory session store: sessions are made only by a right password, so every
// entry is a signed-in user's; each user keeps their most recent ones.
const (
	maxSessionsPerUser = 32
	maxSessions        = 100_000
)

// memorySessions is the in-memory SessionStore: per user at most maxSessionsPerUser (a user's
// oldest session ends when they log in once more), maxSessions in all.
type memorySessions struct {
	mu sync.Mutex
	t  *bounded.Table[string, loginSession]
}

// loginSession is one login.
type loginSession struct {
	user    string
	expires time.Time
}

// NewMemorySessions returns an empty in-memory SessionStore.
func NewMemorySessions() SessionStore {
	return &memorySessions{t: bounded.New(bounded.Options[string, loginSession]{
		Max: 1, PerClient: maxSessionsPerUser, MaxProtected: maxSessions})}
}

// Create implements SessionStore.
func (m *memorySessions) Create(user string, expires time.Time) (string, error) {
	id := rand.Text() // 26 base32 characters, 130 bits
	m.mu.Lock()
	defer m.mu.Unlock()
	m.t.Put(id, loginSession{user: user, expires: expires}, user, true)
	return id, nil
}

// Lookup implements SessionStore.
func (m *memorySessions) Lookup(id string, now time.Time) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.t.Get(id)
	if !ok {
		return "", false
	}
	if !now.Before(s.expires) {
		m.t.Delete(id)
		return "", false
	}
	return s.user, true
}

// Delete implements SessionStore.
func (m *memorySessions) Delete(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.t.Delete(id)
}

// sessionCookie is the cookie naming session id, which lasts ttl.
func sessionCookie(id string, ttl time.Duration, secure bool) *http.Cookie {
	return &http.Cookie{
		Name: cookieName, Value: id, Path: "/", HttpOnly: true, Secure: secure,
		SameSite: http.SameSiteLaxMode, MaxAge: int(ttl.Seconds()),
	}
}

// sessionUser returns the user of r's session cookie, or "". err is a CheckedSessions store's
// that cannot answer now.
func (g *Gate) sessionUser(r *http.Request) (string, error) {
	c, err := r.Cookie(cookieName)
	if err != nil || c.Value == "" || len(c.Value) > 128 {
		return "", nil
	}
	var user string
	var ok bool
	if cs, checked := g.sessions.(CheckedSessions); checked {
		if user, ok, err = cs.LookupChecked(c.Value, g.opts.Now()); err != nil {
			return "", err
		}
	} else {
		user, ok = g.sessions.Lookup(c.Value, g.opts.Now())
	}
	if !ok {
		return "", nil
	}
	return user, nil
}
