package e2e

import (
	"flag"
	"os"
	"strconv"
	"testing"

	"loupe/server/testenv/pgtest"
)

// TestMain runs the package's tests, browserTestsAtOnce at once unless -parallel says
// otherwise, then closes the Chromium they share (sharedBrowser) and removes what they leave
// outside their own temporary folders: the process's shared folder (processTemp: the loupe
// binary, 175 MB, the shared static sites and Chromium's profile) and the
// throw-away PostgreSQL cluster the replicas tests share (pgtest.Shared), if one started it.
func TestMain(m *testing.M) {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		_ = flag.Set("test.parallel", strconv.Itoa(browserTestsAtOnce()))
	}
	code := m.Run()
	closeSharedBrowser()
	removeProcessTemp()
	pgtest.Stop()
	os.Exit(code)
}
