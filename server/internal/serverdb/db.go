// Package serverdb is the bbolt file (go.etcd.io/bbolt) in the data directory that keeps the
// server's own state across restarts: login sessions, users' OAuth grants (sealed by the
// caller, encrypted at rest) and the grants and access tokens the script sandbox's
// authorization server issued. Its types implement access.SessionStore, oauth.GrantStore and
// script.TokenStore with plain types, so that it imports none of them.
//
// It is a file of its own, server.db, beside the sandboxes' sandbox-state.db
// (server/sandbox/state/boltstore) rather than buckets in that one: that store's layout is a
// top-level bucket per sandbox session, every one of which it lists as a session, and its
// database handle is its own. Two files cost one more file lock and nothing else. Each write is
// one fsync'd transaction.
package serverdb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// FileName is the database's name in the data directory.
const FileName = "server.db"

// Buckets.
var (
	bucketSessions     = []byte("sessions")      // digest of the session ID → session
	bucketUserSessions = []byte("user-sessions") // user \x00 digest → created (unix nanoseconds)
	bucketGrants       = []byte("oauth-grants")  // user \x00 api → sealed grant
	bucketScript       = []byte("script-oauth")  // grant digest → bucket: "g" → sealed grant, "a"+digest → sealed access token
)

// lockTimeout is how long Open waits for another process to let go of the file.
var lockTimeout = 3 * time.Second

// DB is the server's database. It is safe for concurrent use.
type DB struct {
	db *bolt.DB
}

// Open opens (or creates) server.db in dir, creating dir when missing. It fails after a few
// seconds when another process holds the file.
func Open(dir string) (*DB, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the data directory: %w", err)
	}
	path := filepath.Join(dir, FileName)
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: lockTimeout})
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, fmt.Errorf("opening %s: another Loupe uses this data directory; stop it or give this one another -data", path)
	}
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketSessions, bucketUserSessions, bucketGrants, bucketScript} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return &DB{db: db}, nil
}

// Path returns the database file's path.
func (d *DB) Path() string { return d.db.Path() }

// Close closes the file.
func (d *DB) Close() error { return d.db.Close() }

// wrap names the database in an error.
func wrap(err error) error {
	if err != nil {
		return fmt.Errorf("server database: %w", err)
	}
	return nil
}
