package e2e

import (
	"testing"

	"loupe/server/testenv/pgtest"
)

// TestMain runs the package's tests, then stops and removes the throw-away PostgreSQL cluster
// the replicas tests share (pgtest.Shared), if one started it.
func TestMain(m *testing.M) { pgtest.Main(m) }
