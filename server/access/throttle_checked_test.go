package access

import (
	"errors"
	"net/http"
	"testing"
	"time"
)

// awayThrottle is a CheckedThrottle whose database is away.
type awayThrottle struct {
	Throttle
	failed int
}

func (a *awayThrottle) WaitChecked(string, time.Time) (time.Duration, error) {
	return 0, errors.New("the database is away")
}

func (a *awayThrottle) FailedChecked(string, bool, time.Time) error {
	a.failed++
	return errors.New("the database is away")
}

// TestLoginWithTheThrottleAway: a throttle that cannot say how long to wait answers the login
// 503 before any password is checked, the right one included: never a login unthrottled.
func TestLoginWithTheThrottleAway(t *testing.T) {
	rig := newLoginRig(t, 100)
	away := &awayThrottle{Throttle: NewMemoryThrottle(DefaultDelays, 100)}
	rig.gate.throttle = away
	for _, password := range []string{"wrong", "right"} {
		if code, _, _ := rig.login("alice", password, "198.51.100.7"); code != http.StatusServiceUnavailable {
			t.Errorf("%s password with the throttle away: got %d; want 503", password, code)
		}
	}
	if away.failed != 0 {
		t.Errorf("failures counted: got %d; want 0 (no password was checked)", away.failed)
	}
}
