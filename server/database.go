package server

import (
	"log/slog"

	"loupe/server/access"
	"loupe/server/access/pgsessions"
	"loupe/server/access/pgthrottle"
	"loupe/server/internal/pgoauth"
	"loupe/server/oauth"
	"loupe/server/sandbox/script"
	"loupe/server/sandbox/state"
	"loupe/server/sandbox/state/pgstore"
)

// sharedSessions is the login session store of server.database (pgsessions, on the sandbox
// state's connection pool), so that every replica naming the database knows every login; nil
// (the gate's default) without it.
func sharedSessions(reg *state.Registry) access.SessionStore {
	if st, ok := reg.Store().(*pgstore.Store); ok {
		return pgsessions.New(st.DB())
	}
	return nil
}

// sharedThrottle is the login throttle of server.database (pgthrottle, on the sandbox state's
// connection pool), so that wrong passwords spread over the replicas count as on one; nil (the
// gate's in-memory default) without it.
func sharedThrottle(reg *state.Registry) access.Throttle {
	if st, ok := reg.Store().(*pgstore.Store); ok {
		return pgthrottle.New(st.DB(), access.DefaultDelays, access.DefaultThrottleAddresses)
	}
	return nil
}

// The shared stores implement the stores of the packages they serve.
var (
	_ oauth.GrantStore         = (*pgoauth.Grants)(nil)
	_ script.BoundedTokenStore = (*pgoauth.ScriptTokens)(nil)
)

// share keeps the OAuth grants and the script sandbox's issued tokens in server.database
// (pgoauth, on the sandbox state's connection pool) when the registry's store is there, so
// that a sign-in, a renewal, an issued token or a revocation on one replica holds on every
// other at the next request; otherwise they stay in server.db (or memory). Called before
// the sandboxes and the sign-in service are made.
func (d *durable) share(reg *state.Registry, log *slog.Logger) {
	if st, ok := reg.Store().(*pgstore.Store); ok {
		d.shared = st.DB()
		log.Info("OAuth grants and the script sandbox's issued tokens", "kept", "server.database, shared by the replicas")
	}
}
