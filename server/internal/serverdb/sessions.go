package serverdb

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Bounds of the stored sessions, as the in-memory store's (server/access): each user keeps
// their most recent MaxSessionsPerUser, all users together MaxSessions (past it the oldest
// session of all ends).
const (
	MaxSessionsPerUser = 32
	MaxSessions        = 100_000
)

// Sessions is access.SessionStore in the database: a session survives a restart until it
// expires or its user logs out. Only a digest of each session ID is stored, so the file gives
// no one a session.
type Sessions struct {
	db *DB
	mu sync.Mutex
	n  int // stored sessions
}

// session is one stored login.
type session struct {
	User    string    `json:"u"`
	Expires time.Time `json:"e"`
	Created time.Time `json:"c"`
}

// Sessions returns the login sessions, their expired ones removed (at now).
func (d *DB) Sessions(now time.Time) (*Sessions, error) {
	s := &Sessions{db: d}
	err := d.db.Update(func(tx *bolt.Tx) error {
		var expired [][]byte
		c := tx.Bucket(bucketSessions).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			s.n++
			var se session
			if json.Unmarshal(v, &se) != nil || !now.Before(se.Expires) {
				expired = append(expired, bytes.Clone(k))
			}
		}
		for _, k := range expired {
			if err := s.remove(tx, k); err != nil {
				return err
			}
		}
		return nil
	})
	return s, wrap(err)
}

// Create implements access.SessionStore.
func (s *Sessions) Create(user string, expires time.Time) (string, error) {
	id := rand.Text() // 26 base32 characters, 130 bits
	key := digest(id)
	created := time.Now()
	v, err := json.Marshal(session{User: user, Expires: expires, Created: created})
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	err = s.db.db.Update(func(tx *bolt.Tx) error {
		mine := s.userSessions(tx, user)
		for len(mine) >= MaxSessionsPerUser { // the user's oldest ends
			if err := s.remove(tx, mine[0]); err != nil {
				return err
			}
			mine = mine[1:]
		}
		if s.n >= MaxSessions {
			if err := s.removeOldest(tx); err != nil {
				return err
			}
		}
		if err := tx.Bucket(bucketSessions).Put(key, v); err != nil {
			return err
		}
		s.n++
		return tx.Bucket(bucketUserSessions).Put(userKey(user, key), binary.BigEndian.AppendUint64(nil, uint64(created.UnixNano())))
	})
	if err != nil {
		return "", wrap(err)
	}
	return id, nil
}

// Lookup implements access.SessionStore; an expired session is removed.
func (s *Sessions) Lookup(id string, now time.Time) (string, bool) {
	key := digest(id)
	var se session
	found := false
	_ = s.db.db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketSessions).Get(key); v != nil && json.Unmarshal(v, &se) == nil {
			found = true
		}
		return nil
	})
	if !found {
		return "", false
	}
	if !now.Before(se.Expires) {
		s.Delete(id)
		return "", false
	}
	return se.User, true
}

// Delete implements access.SessionStore.
func (s *Sessions) Delete(id string) {
	key := digest(id)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.db.db.Update(func(tx *bolt.Tx) error { return s.remove(tx, key) }); err != nil {
		slog.Default().Error("ending a login session", "err", wrap(err)) // never the ID
	}
}

// remove deletes the session stored under key and its index entry.
func (s *Sessions) remove(tx *bolt.Tx, key []byte) error {
	b := tx.Bucket(bucketSessions)
	v := b.Get(key)
	if v == nil {
		return nil
	}
	var se session
	_ = json.Unmarshal(v, &se)
	if err := b.Delete(key); err != nil {
		return err
	}
	s.n--
	return tx.Bucket(bucketUserSessions).Delete(userKey(se.User, key))
}

// userSessions lists user's session keys, oldest first.
func (s *Sessions) userSessions(tx *bolt.Tx, user string) [][]byte {
	type kc struct {
		key     []byte
		created uint64
	}
	var found []kc
	prefix := append([]byte(user), 0)
	c := tx.Bucket(bucketUserSessions).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if len(v) == 8 {
			found = append(found, kc{bytes.Clone(k[len(prefix):]), binary.BigEndian.Uint64(v)})
		}
	}
	for i := 1; i < len(found); i++ { // a few dozen at most: insertion sort
		for j := i; j > 0 && found[j].created < found[j-1].created; j-- {
			found[j], found[j-1] = found[j-1], found[j]
		}
	}
	out := make([][]byte, len(found))
	for i, f := range found {
		out[i] = f.key
	}
	return out
}

// removeOldest ends the session created first, of all users.
func (s *Sessions) removeOldest(tx *bolt.Tx) error {
	var oldest []byte
	var when time.Time
	c := tx.Bucket(bucketSessions).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		var se session
		if json.Unmarshal(v, &se) == nil && (oldest == nil || se.Created.Before(when)) {
			oldest, when = bytes.Clone(k), se.Created
		}
	}
	if oldest == nil {
		return nil
	}
	return s.remove(tx, oldest)
}

// digest is the stored key of a session ID.
func digest(id string) []byte {
	sum := sha256.Sum256([]byte(id))
	return sum[:]
}

// userKey is the index key of a user's session.
func userKey(user string, key []byte) []byte {
	return append(append([]byte(user), 0), key...)
}
