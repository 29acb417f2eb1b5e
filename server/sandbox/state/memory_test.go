package state_test

import (
	"testing"

	"loupe/server/sandbox/state"
	"loupe/server/sandbox/state/storetest"
)

// TestMemoryStore runs the shared Store table against Memory.
func TestMemoryStore(t *testing.T) {
	storetest.Run(t, func(*testing.T) state.Store { return state.NewMemory() })
}
