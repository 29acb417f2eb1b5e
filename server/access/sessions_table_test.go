package access_test

import (
	"testing"

	"loupe/server/access"
	"loupe/server/access/sessiontest"
)

// TestMemorySessionStore runs the shared SessionStore table against the in-memory store.
func TestMemorySessionStore(t *testing.T) {
	sessiontest.Run(t, func(*testing.T) access.SessionStore { return access.NewMemorySessions() })
}
