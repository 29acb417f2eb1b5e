package access

import (
	"net/http"
	"time"
)

// MaxSessionsPerUser is how many logins one user keeps at once: one more ends their oldest.
const MaxSessionsPerUser = maxSessionsPerUser

// CheckedSessions is a SessionStore on a shared database that may be away at run time
// (pgsessions). Its lookups and logouts report that, so the gate answers 503 saying so rather
// than sending a signed-in user to the login page, or telling them they logged out when their
// session still holds elsewhere.
type CheckedSessions interface {
	SessionStore
	// LookupChecked is Lookup; err is not nil when the store cannot answer now.
	LookupChecked(id string, now time.Time) (user string, ok bool, err error)
	// DeleteChecked is Delete; err is not nil when the session may not have ended.
	DeleteChecked(id string) error
}

// storeAway answers a request whose login cannot be checked or ended because the session store
// is away: 503, in Loupe's own error shape.
func storeAway(w http.ResponseWriter, r *http.Request, what string) {
	w.Header().Set("Retry-After", "5")
	deny(w, r, http.StatusServiceUnavailable,
		"Loupe cannot reach its database to "+what+" right now; try again in a moment",
		"that PostgreSQL runs at the address of server.database (LOUPE_DATABASE_URL)")
}

// CheckedThrottle is a Throttle on a shared database that may be away at run time
// (pgthrottle). Its checks report that, so that a login is answered 503 rather than checked
// without the throttle (which would let a guesser past it while the database is away).
type CheckedThrottle interface {
	Throttle
	// WaitChecked is Wait; err is not nil when the throttle cannot answer now.
	WaitChecked(key string, now time.Time) (time.Duration, error)
	// FailedChecked is Failed; err is not nil when the failure may not have been counted.
	FailedChecked(key string, protected bool, now time.Time) error
}

// wait is how long key must still wait at now, with the error of a CheckedThrottle.
func (g *Gate) wait(key string, now time.Time) (time.Duration, error) {
	if ct, ok := g.throttle.(CheckedThrottle); ok {
		return ct.WaitChecked(key, now)
	}
	return g.throttle.Wait(key, now), nil
}

// failed counts a failure of key at now, with the error of a CheckedThrottle.
func (g *Gate) failed(key string, protected bool, now time.Time) error {
	if ct, ok := g.throttle.(CheckedThrottle); ok {
		return ct.FailedChecked(key, protected, now)
	}
	g.throttle.Failed(key, protected, now)
	return nil
}
