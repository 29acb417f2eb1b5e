package pgtest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// shared is the package's cluster, started by the first test that asks (Shared).
var shared struct {
	once sync.Once
	c    *Cluster
	err  error
	took time.Duration
}

// dbs numbers the databases DB makes.
var dbs atomic.Int64

// Main runs a test package's tests (call it from TestMain) and then stops and removes the
// shared cluster, if a test started it.
func Main(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

// Stop stops and removes the shared cluster, if a test started it: for a TestMain that does
// more than Main.
func Stop() {
	if shared.c != nil {
		if err := shared.c.Remove(); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest: removing the test cluster:", err)
		}
	}
}

// Shared returns the package's cluster, starting it on first use. The test fails (never
// skips) when PostgreSQL is not installed, saying to run `make deps`. Call Main from the
// package's TestMain so that it is stopped.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	shared.once.Do(func() {
		start := time.Now()
		shared.c, shared.err = Start()
		shared.took = time.Since(start)
	})
	if shared.err != nil {
		t.Fatalf("starting a throw-away PostgreSQL cluster: %v", shared.err)
	}
	return shared.c
}

// StartTime is how long the shared cluster took to start (initdb and pg_ctl start), zero
// before it did.
func StartTime() time.Duration { return shared.took }

// DB returns the URL of a new empty database in the package's cluster (Shared).
func DB(t testing.TB) string {
	t.Helper()
	c := Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	name := fmt.Sprintf("t%d_%s", dbs.Add(1), strings.ToLower(sanitize(t.Name())))
	if len(name) > 60 {
		name = name[:60]
	}
	url, err := c.CreateDB(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	return url
}

// New starts a cluster of the test's own, removed when the test ends: for a test that stops
// its database on purpose.
func New(t testing.TB) *Cluster {
	t.Helper()
	c, err := Start()
	if err != nil {
		t.Fatalf("starting a throw-away PostgreSQL cluster: %v", err)
	}
	t.Cleanup(func() { _ = c.Remove() })
	return c
}

// sanitize keeps the letters and digits of a test's name.
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}
