package pgtest

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// libDir is where Debian's postgresql package installs its versions.
var libDir = "/usr/lib/postgresql"

// binDir finds the folder of initdb and pg_ctl: on PATH, else the newest of Debian's
// /usr/lib/postgresql/<version>/bin. The error says how to install them.
func binDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(p), "pg_ctl")); err == nil {
			return filepath.Dir(p), nil
		}
	}
	found, _ := filepath.Glob(filepath.Join(libDir, "*", "bin", "initdb"))
	slices.SortFunc(found, func(a, b string) int { return version(b) - version(a) })
	if len(found) > 0 {
		return filepath.Dir(found[0]), nil
	}
	return "", fmt.Errorf("PostgreSQL's initdb and pg_ctl are not installed (neither on PATH nor in /usr/lib/postgresql/*/bin): run `make deps`, which installs Debian's postgresql package")
}

// version is the major version in /usr/lib/postgresql/<version>/bin/initdb, or 0.
func version(path string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(path))))
	return n
}

// runAsOwner makes the cluster's programs run as a non-root user when the test runs as root
// (initdb and postgres refuse root): the postgres user Debian's package makes, else nobody. The
// cluster's folder is given to that user.
func (c *Cluster) runAsOwner() error {
	if os.Geteuid() != 0 {
		return nil
	}
	var uid, gid string
	for _, name := range []string{"postgres", "nobody"} {
		if u, err := user.Lookup(name); err == nil {
			uid, gid = u.Uid, u.Gid
			break
		}
	}
	if uid == "" {
		return fmt.Errorf("running as root, and neither the postgres nor the nobody user exists to run initdb as (PostgreSQL refuses root): run the tests as another user, or `make deps`")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		return fmt.Errorf("running as root, and setpriv (util-linux) is missing to run initdb as the %s user: %w", uid, err)
	}
	c.asUser = []string{setpriv, "--reuid=" + uid, "--regid=" + gid, "--clear-groups", "--"}
	return c.chown(c.Dir)
}

// chown gives path to the user the cluster runs as (a no-op when not root).
func (c *Cluster) chown(path string) error {
	if len(c.asUser) == 0 {
		return nil
	}
	uid, _ := strconv.Atoi(strings.TrimPrefix(c.asUser[1], "--reuid="))
	gid, _ := strconv.Atoi(strings.TrimPrefix(c.asUser[2], "--regid="))
	if err := os.Chown(path, uid, gid); err != nil {
		return fmt.Errorf("giving %s to the user postgres runs as: %w", path, err)
	}
	return nil
}
