package access_test

import (
	"testing"

	"loupe/server/access"
	"loupe/server/access/throttletest"
)

// TestMemoryThrottle runs the shared Throttle table against the in-memory throttle.
func TestMemoryThrottle(t *testing.T) {
	throttletest.Run(t, func(_ *testing.T, d access.Delays, maxAnonymous int) access.Throttle {
		return access.NewMemoryThrottle(d, maxAnonymous)
	})
}
