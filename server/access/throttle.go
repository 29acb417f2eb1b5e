package access

import (
	"sync"
	"time"

	"loupe/server/internal/bounded"
)

// Throttle slows password guessing down by key (a client address, an account, a trusted
// browser of an account): each failure past a few makes the key wait longer before its next
// attempt, up to a ceiling, and a quiet spell forgets the failures. It never locks a key out
// for good, so an attacker who makes an account wait cannot keep its user out: the user's own
// browsers (a device cookie) have keys of their own. The in-memory Throttle is the default;
// replicas sharing limits implement it on a shared database. Implementations are safe for
// concurrent use.
type Throttle interface {
	// Wait returns how long key must still wait at now before its next attempt; zero allows it.
	Wait(key string, now time.Time) time.Duration
	// Failed counts a failed attempt of key at now. protected says the key is not one a caller
	// can make up (a known account, a signed device): such keys are never evicted to make room
	// for the others.
	Failed(key string, protected bool, now time.Time)
	// Succeeded forgets key's failures.
	Succeeded(key string)
}

// Delays is how a Throttle's waits grow: Free failures cost nothing, then each one doubles the
// wait from First up to Ceiling; Forget after the last failure, the key starts afresh.
type Delays struct {
	Free    int
	First   time.Duration
	Ceiling time.Duration
	Forget  time.Duration
}

// DefaultDelays are the login's: 5 free failures, then 1 s, 2 s, 4 s... up to 5 minutes; 15
// minutes without a failure forgets them. A guesser gets about 300 tries a day per key.
var DefaultDelays = Delays{Free: 5, First: time.Second, Ceiling: 5 * time.Minute, Forget: 15 * time.Minute}

// DefaultThrottleAddresses is how many unprotected keys (client addresses) the gate's
// throttle keeps by default.
const DefaultThrottleAddresses = 10_000

// After returns the wait after the nth failure in a row.
func (d Delays) After(n int) time.Duration {
	if n <= d.Free {
		return 0
	}
	w := d.First
	for i := d.Free + 1; i < n && w < d.Ceiling; i++ {
		w *= 2
	}
	return min(w, d.Ceiling)
}

// failures is one key's record.
type failures struct {
	n     int
	last  time.Time
	until time.Time
}

// memoryThrottle is the in-memory Throttle, bounded: past maxAnonymous unprotected keys (client
// addresses) the least recently failed one is forgotten.
type memoryThrottle struct {
	delays Delays
	mu     sync.Mutex
	t      *bounded.Table[string, *failures]
}

// NewMemoryThrottle returns an in-memory Throttle with delays d that keeps at most
// maxAnonymous unprotected keys (and as many protected ones).
func NewMemoryThrottle(d Delays, maxAnonymous int) Throttle {
	return &memoryThrottle{delays: d, t: bounded.New(bounded.Options[string, *failures]{Max: maxAnonymous})}
}

// Wait implements Throttle.
func (m *memoryThrottle) Wait(key string, now time.Time) time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	f, ok := m.t.Peek(key)
	if !ok || !now.Before(f.until) {
		return 0
	}
	return f.until.Sub(now)
}

// Failed implements Throttle.
func (m *memoryThrottle) Failed(key string, protected bool, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f, ok := m.t.Get(key)
	if !ok {
		f = &failures{}
		m.t.Put(key, f, key, protected)
	}
	if now.Sub(f.last) > m.delays.Forget {
		f.n = 0
	}
	f.n++
	f.last = now
	f.until = now.Add(m.delays.After(f.n))
}

// Succeeded implements Throttle.
func (m *memoryThrottle) Succeeded(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.t.Delete(key)
}
