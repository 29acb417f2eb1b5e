// Package throttletest is the table test every access.Throttle passes: the in-memory one
// (access) and the PostgreSQL one (access/pgthrottle) run the same cases, so that a guesser
// meets the same waits whichever the gate uses.
package throttletest

import (
	"fmt"
	"testing"
	"time"

	"loupe/server/access"
)

// delays are the cases' delays: 2 free failures, then 1 s doubling up to 8 s; an hour's quiet
// forgets.
var delays = access.Delays{Free: 2, First: time.Second, Ceiling: 8 * time.Second, Forget: time.Hour}

// Open returns a fresh, empty throttle with delays d that keeps at most maxAnonymous
// unprotected keys.
type Open func(t *testing.T, d access.Delays, maxAnonymous int) access.Throttle

// clock hands out distinct instants a millisecond apart, so that "least recently failed" is
// never a tie.
type clock struct{ now time.Time }

func (c *clock) tick() time.Time {
	c.now = c.now.Add(time.Millisecond)
	return c.now
}

// failN fails key n times, a tick apart, and returns the instant of the last failure.
func failN(th access.Throttle, c *clock, key string, protected bool, n int) time.Time {
	for range n {
		th.Failed(key, protected, c.tick())
	}
	return c.now
}

// Run runs the shared table against throttles made by open (a fresh one per case).
func Run(t *testing.T, open Open) {
	t.Run("waits grow to the ceiling", func(t *testing.T) {
		th := open(t, delays, 100)
		c := &clock{now: time.Unix(1e9, 0)}
		for n, want := range []time.Duration{0, 0, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second, 8 * time.Second} {
			at := failN(th, c, "address:a", false, 1)
			if got := th.Wait("address:a", at); got != want {
				t.Errorf("after %d failures: got wait %v; want %v", n+1, got, want)
			}
			if want > 0 {
				if got := th.Wait("address:a", at.Add(want/2)); got != want-want/2 {
					t.Errorf("after %d failures, half the wait later: got %v; want %v", n+1, got, want-want/2)
				}
				if got := th.Wait("address:a", at.Add(want)); got != 0 {
					t.Errorf("after %d failures, once the wait passed: got %v; want 0 (a wait, never a lock)", n+1, got)
				}
			}
		}
		for n := 1; n <= 70; n++ {
			if got := delays.After(n); got < 0 || got > delays.Ceiling {
				t.Fatalf("Delays.After(%d) = %v; want within [0, %v]", n, got, delays.Ceiling)
			}
		}
	})
	t.Run("a quiet spell forgets, a shorter one does not", func(t *testing.T) {
		th := open(t, delays, 100)
		c := &clock{now: time.Unix(1e9, 0)}
		last := failN(th, c, "address:a", false, 4) // waits 2 s
		c.now = last.Add(delays.Forget)             // exactly the quiet spell: not forgotten
		th.Failed("address:a", false, c.now)
		if got := th.Wait("address:a", c.now); got != 4*time.Second {
			t.Errorf("a fifth failure a quiet spell after the fourth: got wait %v; want 4s (counted on)", got)
		}
		c.now = c.now.Add(delays.Forget + time.Millisecond)
		th.Failed("address:a", false, c.now)
		if got := th.Wait("address:a", c.now); got != 0 {
			t.Errorf("a failure past the quiet spell: got wait %v; want 0 (the count starts again)", got)
		}
		at := failN(th, c, "address:a", false, 2)
		if got := th.Wait("address:a", at); got != time.Second {
			t.Errorf("the third failure of the new count: got wait %v; want 1s", got)
		}
	})
	t.Run("a success forgets, keys are apart", func(t *testing.T) {
		th := open(t, delays, 100)
		c := &clock{now: time.Unix(1e9, 0)}
		at := failN(th, c, "account:alice", true, 5)
		failN(th, c, "address:b", false, 5)
		if got := th.Wait("account:alice", at); got != 4*time.Second {
			t.Fatalf("after 5 failures: got wait %v; want 4s", got)
		}
		if got := th.Wait("account:bob", at); got != 0 {
			t.Errorf("another key: got wait %v; want 0", got)
		}
		th.Succeeded("account:alice")
		if got := th.Wait("account:alice", at); got != 0 {
			t.Errorf("after a success: got wait %v; want 0", got)
		}
		at = failN(th, c, "account:alice", true, 3)
		if got := th.Wait("account:alice", at); got != time.Second {
			t.Errorf("the third failure after a success: got wait %v; want 1s (counted afresh)", got)
		}
		if got := th.Wait("address:b", at); got == 0 {
			t.Error("a success of alice forgot address:b's failures")
		}
		th.Succeeded("address:unknown") // no error, nothing else forgotten
		if got := th.Wait("address:b", at); got == 0 {
			t.Error("forgetting an unknown key forgot address:b's failures")
		}
	})
	t.Run("bounded: the least recently failed unprotected key goes", func(t *testing.T) {
		th := open(t, delays, 3)
		c := &clock{now: time.Unix(1e9, 0)}
		for _, k := range []string{"a", "b", "c"} {
			failN(th, c, "address:"+k, false, 3)
		}
		failN(th, c, "address:a", false, 1) // a failed more recently than b
		at := failN(th, c, "address:d", false, 3)
		for k, want := range map[string]bool{"a": true, "b": false, "c": true, "d": true} {
			if got := th.Wait("address:"+k, at) > 0; got != want {
				t.Errorf("address %s: got waiting %v; want %v (b failed least recently, and 4 keys pass the bound of 3)", k, got, want)
			}
		}
	})
	t.Run("a flood of addresses never evicts a protected key", func(t *testing.T) {
		th := open(t, delays, 3)
		c := &clock{now: time.Unix(1e9, 0)}
		failN(th, c, "account:alice", true, 3)
		failN(th, c, "device:alice\x00d1", true, 3)
		var at time.Time
		for i := range 30 {
			at = failN(th, c, fmt.Sprintf("address:%d", i), false, 3)
		}
		for _, k := range []string{"account:alice", "device:alice\x00d1"} {
			if got := th.Wait(k, at); got == 0 {
				t.Errorf("%q after 30 addresses failed: got no wait; want its own kept", k)
			}
		}
		waiting := 0
		for i := range 30 {
			if th.Wait(fmt.Sprintf("address:%d", i), at) > 0 {
				waiting++
			}
		}
		if waiting != 3 {
			t.Errorf("addresses still waiting: got %d; want the bound, 3 (the most recent)", waiting)
		}
		if th.Wait("address:29", at) == 0 {
			t.Error("the most recent address was evicted; want the least recently failed ones")
		}
	})
}
