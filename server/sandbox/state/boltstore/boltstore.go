// Package boltstore is the durable state.Store of the Loupe server's sandboxes: one bbolt file
// (go.etcd.io/bbolt, a pure-Go embedded key/value database kept by the etcd project) in the
// data directory. Each Apply is one transaction, fsync'd before it returns, so an acknowledged
// change survives kill -9 and a power cut; the file opens cleanly after either.
//
// Layout: a top-level bucket per session, in it a bucket per API, in it key → value.
package boltstore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"

	"loupe/server/sandbox/state"
)

// FileName is the database's name in the data directory.
const FileName = "sandbox-state.db"

// lockTimeout is how long Open waits for another process to let go of the file.
var lockTimeout = 3 * time.Second

// Store is a state.Store in one bbolt file.
type Store struct {
	db *bolt.DB
}

// Open opens (or creates) the store in dir, creating dir when missing. It fails after a few
// seconds when another process holds the file (a second Loupe on the same data directory).
func Open(dir string) (*Store, error) {
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
	return &Store{db: db}, nil
}

// Path returns the database file's path.
func (s *Store) Path() string { return s.db.Path() }

// Apply implements state.Store: one fsync'd transaction.
func (s *Store) Apply(session, api string, changes []state.Change) error {
	if err := state.Validate(session, api, changes); err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		sb, err := tx.CreateBucketIfNotExists([]byte(session))
		if err != nil {
			return err
		}
		ab, err := sb.CreateBucketIfNotExists([]byte(api))
		if err != nil {
			return err
		}
		for _, c := range changes {
			if c.Value == nil {
				err = ab.Delete([]byte(c.Key))
			} else {
				err = ab.Put([]byte(c.Key), c.Value)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// Load implements state.Store.
func (s *Store) Load(session, api string) ([]state.Entry, error) {
	out := []state.Entry{}
	err := s.db.View(func(tx *bolt.Tx) error {
		sb := tx.Bucket([]byte(session))
		if sb == nil {
			return nil
		}
		ab := sb.Bucket([]byte(api))
		if ab == nil {
			return nil
		}
		return ab.ForEach(func(k, v []byte) error {
			// bbolt's slices live only as long as the transaction.
			out = append(out, state.Entry{Key: string(k), Value: append([]byte{}, v...)})
			return nil
		})
	})
	if err != nil {
		return nil, wrap(err)
	}
	return out, nil
}

// Reset implements state.Store.
func (s *Store) Reset(session, api string) error {
	return s.update(func(tx *bolt.Tx) error {
		sb := tx.Bucket([]byte(session))
		if sb == nil || sb.Bucket([]byte(api)) == nil {
			return nil
		}
		return sb.DeleteBucket([]byte(api))
	})
}

// Drop implements state.Store.
func (s *Store) Drop(session string) error {
	return s.update(func(tx *bolt.Tx) error {
		if tx.Bucket([]byte(session)) == nil {
			return nil
		}
		return tx.DeleteBucket([]byte(session))
	})
}

// ListSessions implements state.Lister: the top-level buckets.
func (s *Store) ListSessions() ([]string, error) {
	var out []string
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
			out = append(out, string(name))
			return nil
		})
	})
	if err != nil {
		return nil, wrap(err)
	}
	return out, nil
}

// Close implements state.Store.
func (s *Store) Close() error { return s.db.Close() }

// update runs f in a read-write transaction.
func (s *Store) update(f func(*bolt.Tx) error) error {
	return wrap(s.db.Update(f))
}

// wrap turns bbolt's closed-database error into state.ErrClosed.
func wrap(err error) error {
	if errors.Is(err, bolt.ErrDatabaseNotOpen) {
		return state.ErrClosed
	}
	if err != nil {
		return fmt.Errorf("sandbox state database: %w", err)
	}
	return nil
}
