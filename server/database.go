package server

import (
	"loupe/server/access"
	"loupe/server/access/pgsessions"
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
