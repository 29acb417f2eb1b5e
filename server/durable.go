package server

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"loupe/server/access"
	"loupe/server/config"
	"loupe/server/internal/pgdb"
	"loupe/server/internal/pgoauth"
	"loupe/server/internal/secretkey"
	"loupe/server/internal/serverdb"
	"loupe/server/oauth"
	"loupe/server/sandbox/all"
	"loupe/server/sandbox/script"
)

// The purposes of the keys derived from the secret key (secretkey.Key.Derive). A label names
// one use only; changing one invalidates what was sealed, signed or encrypted under it.
const (
	purposeOAuthState   = "loupe/oauth/state-cookie/v1"            // sign-ins in progress (server/oauth)
	purposeOAuthGrants  = "loupe/oauth/grants-at-rest/v1"          // users' grants in server.db or server.database
	purposeDeviceCookie = "loupe/access/device-cookie/v1"          // trusted browsers (server/access)
	purposeScriptForm   = "loupe/sandbox/script/consent-form/v1"   // the script sandbox's consent forms
	purposeScriptTokens = "loupe/sandbox/script/tokens-at-rest/v1" // its issued tokens in server.db or server.database
)

// The database implements the stores of the packages it serves.
var (
	_ access.SessionStore = (*serverdb.Sessions)(nil)
	_ oauth.GrantStore    = (*serverdb.Grants)(nil)
	_ script.TokenStore   = (*serverdb.ScriptTokens)(nil)
)

// durable is what lets the server's own state outlive the process: the secret key every key
// derives from, and with a data directory the database of login sessions, OAuth grants and
// the script sandbox's issued tokens.
type durable struct {
	key      secretkey.Key
	db       *serverdb.DB        // nil without a data directory
	sessions access.SessionStore // nil: in memory
	// shared is server.database's: the OAuth grants and the script sandbox's issued tokens are
	// kept there, shared by every replica, rather than in db (share). Nil: not.
	shared *pgdb.DB
}

// openDurable loads the secret key (server.secret_key, LOUPE_SECRET_KEY, else kept in the data
// directory; with server.database one of the first two is required) and opens the server's database in the data directory. The log says where the key
// came from, never the key.
func openDurable(s config.Server, log *slog.Logger) (*durable, error) {
	if s.Database != "" && s.SecretKeyValue == "" && s.SecretKey == "" {
		// A key made here would be this replica's alone: the others could not open what it
		// seals, and would drop the grants and tokens they cannot read.
		return nil, errors.New("server.database is set, so replicas share their state, and each needs the same secret key to open what the others sealed: " +
			"set server.secret_key (a file holding it) or LOUPE_SECRET_KEY on every replica; make one with: openssl rand -base64 48")
	}
	key, source, err := secretkey.Load(secretkey.Options{Value: s.SecretKeyValue, File: s.SecretKey, DataDir: s.DataDir})
	if err != nil {
		return nil, err
	}
	log.Info("secret key", "from", source)
	d := &durable{key: key}
	if s.DataDir == "" {
		log.Info("login sessions and OAuth grants", "kept", "in memory (a restart logs everyone out: give -data DIR)")
		return d, nil
	}
	if d.db, err = serverdb.Open(s.DataDir); err != nil {
		return nil, fmt.Errorf("server.data_dir: %w", err)
	}
	sessions, err := d.db.Sessions(time.Now())
	if err != nil {
		d.db.Close()
		return nil, fmt.Errorf("server.data_dir: %w", err)
	}
	d.sessions = sessions
	log.Info("login sessions and OAuth grants", "kept", d.db.Path())
	return d, nil
}

// access adds the session store and the device key to the gate's options.
func (d *durable) access(o access.Options) access.Options {
	o.Sessions = d.sessions
	o.DeviceKey = d.key.Derive(purposeDeviceCookie)
	return o
}

// oauth adds the state key and the grant store to the sign-in service's options.
func (d *durable) oauth(o oauth.Options) oauth.Options {
	o.StateKey = d.key.Derive(purposeOAuthState)
	switch {
	case d.shared != nil:
		o.Grants, o.GrantKey, o.SharedGrants = pgoauth.NewGrants(d.shared), d.key.Derive(purposeOAuthGrants), true
	case d.db != nil:
		o.Grants, o.GrantKey = d.db.Grants(), d.key.Derive(purposeOAuthGrants)
	}
	return o
}

// scriptOAuth is the script sandbox's authorization server's keys and token store.
func (d *durable) scriptOAuth(log *slog.Logger) all.ScriptOAuth {
	o := all.ScriptOAuth{SealKey: d.key.Derive(purposeScriptForm), Logger: log}
	switch {
	case d.shared != nil:
		o.Tokens, o.TokenKey = pgoauth.NewScriptTokens(d.shared), d.key.Derive(purposeScriptTokens)
	case d.db != nil:
		o.Tokens, o.TokenKey = d.db.ScriptTokens(), d.key.Derive(purposeScriptTokens)
	}
	return o
}

// close closes the database.
func (d *durable) close() error {
	if d == nil || d.db == nil {
		return nil
	}
	return d.db.Close()
}
