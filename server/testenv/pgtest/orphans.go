package pgtest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ownerFile, in a cluster's folder, holds the process ID of the test process that started it.
const ownerFile = "owner.pid"

// recordOwner writes this process's ID into the cluster's folder, for sweepOrphans.
func (c *Cluster) recordOwner() error {
	return os.WriteFile(filepath.Join(c.Dir, ownerFile), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644)
}

// sweepOrphans stops and removes the clusters in the temporary folder whose test process is
// gone. A test binary that is killed (a `go test` timeout, a Ctrl-C, CI's limit) never reaches
// its TestMain's Stop, and its postgres would otherwise run until the machine restarts, holding
// its files and whatever its parent held open. A cluster without an owner file is left alone.
func sweepOrphans(bin string) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "loupe-pg-*"))
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 || alive(pid) {
			continue
		}
		c := &Cluster{Dir: dir, bin: bin}
		if err := c.runAsOwner(); err != nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(c.data(), "postmaster.pid")); err == nil {
			if out, err := c.command("pg_ctl", "-D", c.data(), "-m", "immediate", "-w", "stop").CombinedOutput(); err != nil {
				fmt.Fprintf(os.Stderr, "pgtest: stopping the orphaned cluster in %s: %v: %s\n", dir, err, out)
				continue
			}
		}
		os.RemoveAll(dir)
	}
}

// alive reports whether process pid exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
