// Package pgslots bounds how many runs one user has going on across every Loupe replica on one
// PostgreSQL database: the script sandbox's per-user run slots (server/sandbox/script), which
// in one process are a counter, and with replicas must be one count for all of them.
//
// A slot is a session-level advisory lock (pg_try_advisory_lock) held on a connection of the
// package's own pool for as long as the run goes on. PostgreSQL releases a session's locks
// when its connection ends, so a replica that dies (kill -9 included) gives its users' slots
// back at once, with no lease to expire and no table to clean.
package pgslots

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Slots takes and gives back users' run slots. It is safe for concurrent use.
type Slots struct {
	pool    *pgxpool.Pool
	perUser int

	mu     sync.Mutex
	held   map[*pgxpool.Conn]bool // the connections holding a slot
	closed bool
}

// New opens a pool of its own on the database cfg points to (a copy of it: the shared pool's
// connections are never held by a run), with one connection for each of the maxRuns runs this
// replica may have going on at once, and bounds each user to perUser slots.
func New(ctx context.Context, cfg *pgxpool.Config, maxRuns, perUser int) (*Slots, error) {
	if maxRuns < 1 || perUser < 1 {
		return nil, fmt.Errorf("run slots: expected at least one run and one per user, got %d and %d", maxRuns, perUser)
	}
	c := cfg.Copy()
	c.MaxConns = int32(maxRuns)
	c.MinConns = 0
	pool, err := pgxpool.NewWithConfig(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("opening the run slots' connections: %w", err)
	}
	return &Slots{pool: pool, perUser: perUser, held: map[*pgxpool.Conn]bool{}}, nil
}

// Close ends every connection, which gives back every slot still held (their release
// functions then do nothing), and closes the pool.
func (s *Slots) Close() {
	s.mu.Lock()
	s.closed = true
	held := s.held
	s.held = map[*pgxpool.Conn]bool{}
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for conn := range held {
		_ = conn.Conn().Close(ctx)
		conn.Release()
	}
	s.pool.Close()
}

// PerUser is how many slots one user may hold.
func (s *Slots) PerUser() int { return s.perUser }

// key is slot i of user's advisory lock key: 64 bits of FNV-1a over a label, the user and i.
// Two users' keys collide with a probability of 2^-64 per pair, which at worst refuses a run.
func key(user string, i int) int64 {
	h := fnv.New64a()
	h.Write([]byte("loupe script run slot\x00"))
	h.Write([]byte(user))
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(i))
	h.Write(n[:])
	return int64(h.Sum64())
}

// Take takes one of user's slots: ok is false when all perUser are held (on any replica).
// release gives it back; calling it again does nothing. An error means the database did not
// answer: the caller cannot know, and refuses the run saying so.
func (s *Slots) Take(ctx context.Context, user string) (release func(), ok bool, err error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("taking a run slot: %w", err)
	}
	for i := range s.perUser {
		k := key(user, i)
		var got bool
		if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, k).Scan(&got); err != nil {
			conn.Release()
			return nil, false, fmt.Errorf("taking a run slot: %w", err)
		}
		if got {
			s.mu.Lock()
			if s.closed {
				s.mu.Unlock()
				_ = conn.Conn().Close(ctx)
				conn.Release()
				return nil, false, fmt.Errorf("taking a run slot: the slots are closed")
			}
			s.held[conn] = true
			s.mu.Unlock()
			var once sync.Once
			return func() { once.Do(func() { s.give(conn, k) }) }, true, nil
		}
	}
	conn.Release()
	return nil, false, nil
}

// give gives back the slot of key k held on conn, and conn to the pool.
func (s *Slots) give(conn *pgxpool.Conn, k int64) {
	s.mu.Lock()
	mine := s.held[conn]
	delete(s.held, conn)
	s.mu.Unlock()
	if !mine { // Close ended it
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var unlocked bool
	if err := conn.QueryRow(ctx, `SELECT pg_advisory_unlock($1)`, k).Scan(&unlocked); err != nil || !unlocked {
		// The lock cannot be said to be given back: end the connection, which does.
		_ = conn.Conn().Close(ctx)
	}
	conn.Release()
}
