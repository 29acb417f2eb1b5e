package cluster

import (
	"slices"
	"sync"
	"time"
)

// Clock is the simulation's time source. The real clock moves by itself; a
// ManualClock moves only when a test advances it, so tests of waits and
// allocation use simulated time and never sleep.
type Clock interface {
	// Now is the current time.
	Now() time.Time
	// AfterFunc calls f once d has passed, in its own goroutine or in the
	// caller of ManualClock.Advance, and returns a func that cancels it
	// (reporting whether it did).
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// realClock is the wall clock.
type realClock struct{}

// Now implements Clock.
func (realClock) Now() time.Time { return time.Now() }

// AfterFunc implements Clock.
func (realClock) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// ManualClock is a Clock for tests: time stands still until Advance moves it,
// firing every timer that falls due on the way, in order, each at its own
// time. The zero value is not usable; call NewManualClock.
type ManualClock struct {
	mu     sync.Mutex
	now    time.Time
	seq    int
	timers []*manualTimer
}

// manualTimer is one pending AfterFunc of a ManualClock.
type manualTimer struct {
	at  time.Time
	seq int // creation order, to fire timers due at the same time in order
	f   func()
}

// NewManualClock returns a ManualClock standing at start.
func NewManualClock(start time.Time) *ManualClock { return &ManualClock{now: start} }

// Now implements Clock.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc implements Clock.
func (c *ManualClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := &manualTimer{at: c.now.Add(max(d, 0)), seq: c.seq, f: f}
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		n := len(c.timers)
		c.timers = slices.DeleteFunc(c.timers, func(x *manualTimer) bool { return x == t })
		return len(c.timers) < n
	}
}

// Next moves the clock to the earliest pending timer and fires it,
// reporting false when no timer is pending.
func (c *ManualClock) Next() bool {
	c.mu.Lock()
	if len(c.timers) == 0 {
		c.mu.Unlock()
		return false
	}
	first := c.timers[0].at
	for _, t := range c.timers {
		if t.at.Before(first) {
			first = t.at
		}
	}
	d := first.Sub(c.now)
	c.mu.Unlock()
	c.Advance(max(d, 0))
	return true
}

// Advance moves the clock forward by d, firing the timers due by then in the
// order of their times. A timer set by a fired one fires too if it falls due
// within d.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	target := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		i := -1
		for j, t := range c.timers {
			if !t.at.After(target) && (i < 0 || t.at.Before(c.timers[i].at) || (t.at.Equal(c.timers[i].at) && t.seq < c.timers[i].seq)) {
				i = j
			}
		}
		if i < 0 {
			c.now = target
			c.mu.Unlock()
			return
		}
		t := c.timers[i]
		c.timers = slices.Delete(c.timers, i, i+1)
		if t.at.After(c.now) {
			c.now = t.at
		}
		c.mu.Unlock()
		t.f()
	}
}
