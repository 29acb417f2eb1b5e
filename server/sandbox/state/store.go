// Package state keeps the built-in sandboxes' state per sandbox session: each Loupe user (a
// signed-in name, an anonymous browser's cookie, an official client's credential) sees the
// seeded data and their own changes, and nobody else's.
//
// Three pieces, each in its own file:
//
//   - Store (this file): where the changes are kept, keyed by (session, api, key). The seeded
//     data is never written, only changes: a new or changed record, or a tombstone of the API's
//     choosing for a deleted seeded record. Memory is the in-memory Store; boltstore is the
//     durable one on disk; pgstore is the one Loupe replicas share in PostgreSQL, a Versioned
//     store (shared.go) whose generations keep every replica's live state coherent.
//   - The session identity (session.go): every request a sandbox serves carries a session ID
//     in its context (WithSession, SessionOf). The Loupe server sets it; the in-memory listener
//     between the proxy and the sandboxes carries it in the Header, which only that listener
//     trusts (TrustHeader).
//   - The registry (registry.go, api.go): the live state of each session and API, built lazily
//     from the seed and the stored changes (copy on write: a session that only reads holds no
//     copy), evicted when idle, bounded in number and in bytes of changes.
//
// A sandbox uses it like this (server/sandbox/script/sessions.go is a complete example):
//
//	api := state.NewAPI(reg, "script", func(session string, changes []state.Entry) (*store, error) {
//		st := seeded()                 // the seed
//		return st, st.replay(changes)  // with the session's changes
//	}).Share(func() (*store, error) { return seeded(), nil }) // what sessions without changes read
//	...
//	st, err := api.Read(r.Context())  // a GET: the shared seed until the session changes something
//	st, err := api.Get(r.Context())   // a change: the session's own state
//	st.mu.Lock()
//	defer st.mu.Unlock()
//	if err := api.ApplyTo(r.Context(), st, state.Put(key, value)); err != nil { ... } // durable first
//	st.apply(...)                     // then the live state
//
// An error from Get, Read or Apply may be a *LimitError (AsLimit): answer its Status and
// Message in the API's own error shape.
package state

import "errors"

// Change is one change to a session's data of one API: Value is the record's new encoding, or
// nil to forget the key (the record is back to what the seed says, or never existed). An API
// records a deleted seeded record as a tombstone value of its own choosing, not as nil.
type Change struct {
	Key   string
	Value []byte
}

// Put returns the change that sets key to value.
func Put(key string, value []byte) Change { return Change{Key: key, Value: value} }

// Forget returns the change that removes key from the stored changes.
func Forget(key string) Change { return Change{Key: key} }

// Entry is one stored change, as Load returns it.
type Entry struct {
	Key   string
	Value []byte
}

// Store keeps the changes of every session, keyed by (session, api, key). Implementations are
// safe for concurrent use.
type Store interface {
	// Apply writes changes to (session, api) atomically: all or none. When it returns nil the
	// changes are durable as far as the implementation goes (boltstore: on disk, fsync'd, they
	// survive kill -9). A later change of the same key in changes wins.
	Apply(session, api string, changes []Change) error
	// Load returns the stored changes of (session, api), sorted by key (bytewise); none is an
	// empty slice, not an error.
	Load(session, api string) ([]Entry, error)
	// Reset forgets the stored changes of (session, api): the session sees the seed again.
	Reset(session, api string) error
	// Drop forgets every stored change of session, in every API.
	Drop(session string) error
	// Close releases the store; calls after it fail.
	Close() error
}

// ErrClosed is returned by a Store's methods after Close.
var ErrClosed = errors.New("the sandbox state store is closed")

// validate refuses an empty session, api or key, which no backend can key on.
func validate(session, api string, changes []Change) error {
	if session == "" || api == "" {
		return errors.New("sandbox state: empty session or api")
	}
	for _, c := range changes {
		if c.Key == "" {
			return errors.New("sandbox state: empty key")
		}
	}
	return nil
}

// Validate is validate for Store implementations outside this package: it refuses an empty
// session, api or key.
func Validate(session, api string, changes []Change) error { return validate(session, api, changes) }
