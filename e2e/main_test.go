package e2e

import (
	"os"
	"testing"

	"loupe/server/testenv/pgtest"
)

// TestMain runs the package's tests, then removes what they leave outside their temporary
// folders: the loupe binary the static-site tests built (175 MB) and the throw-away PostgreSQL
// cluster the replicas tests share (pgtest.Shared), if one started it.
func TestMain(m *testing.M) {
	code := m.Run()
	if builtBinaryDir != "" {
		os.RemoveAll(builtBinaryDir)
	}
	pgtest.Stop()
	os.Exit(code)
}
