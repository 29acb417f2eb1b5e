// Package pgtest starts throw-away PostgreSQL clusters for tests: initdb in a temporary folder,
// postgres listening on a free loopback port (password authentication, scram-sha-256) and on a
// Unix socket in the same folder, stopped and removed at the end. It needs Debian's postgresql
// package (`make deps` installs it); without it a test that asks for a cluster fails, saying so,
// and is never skipped.
//
// A test package shares one cluster (Shared, DB) and stops it in TestMain (Main); a test that
// stops its database on purpose starts its own (New).
package pgtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/jackc/pgx/v5"
)

// User and Password are the superuser of every cluster this package starts.
const (
	User     = "loupe"
	Password = "loupe-test-password"
)

// Cluster is one running throw-away cluster.
type Cluster struct {
	// Dir is the folder holding the data directory, the socket and the log.
	Dir string
	// Port is the loopback TCP port postgres listens on.
	Port int

	bin    string   // the folder of initdb, pg_ctl and postgres
	asUser []string // the prefix that runs a command as a non-root user, when we are root
}

// Start makes a cluster in a new temporary folder and starts it. Stop it (Stop) when done.
func Start() (*Cluster, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	sweepOrphans(bin)
	dir, err := os.MkdirTemp("", "loupe-pg-")
	if err != nil {
		return nil, fmt.Errorf("making the cluster's folder: %w", err)
	}
	c := &Cluster{Dir: dir, bin: bin}
	if err := c.recordOwner(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("recording the cluster's owner: %w", err)
	}
	if err := c.runAsOwner(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	pw := filepath.Join(dir, "pw")
	if err := os.WriteFile(pw, []byte(Password+"\n"), 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := c.chown(pw); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if out, err := c.command("initdb", "-D", c.data(), "-U", User, "--pwfile", pw, "-E", "UTF8", "--locale", "C",
		"--auth-local", "trust", "--auth-host", "scram-sha-256", "--no-sync").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	if err := c.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return c, nil
}

// Start starts the cluster's postgres again after Stop (or Kill), on a new free port when the
// old one is taken.
func (c *Cluster) Start() error {
	var last error
	for range 3 {
		if c.Port == 0 || last != nil {
			port, err := freePort()
			if err != nil {
				return err
			}
			c.Port = port
		}
		opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -c unix_socket_directories=%s -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200", c.Port, c.Dir)
		out, err := c.command("pg_ctl", "-D", c.data(), "-l", filepath.Join(c.Dir, "log"), "-o", opts, "-w", "-t", "30", "start").CombinedOutput()
		if err == nil {
			return nil
		}
		log, _ := os.ReadFile(filepath.Join(c.Dir, "log"))
		last = fmt.Errorf("pg_ctl start: %v: %s%s", err, out, tail(log))
	}
	return last
}

// Stop stops postgres (fast shutdown: open connections are closed) and keeps the folder, so
// that Start can start it again.
func (c *Cluster) Stop() error {
	if out, err := c.command("pg_ctl", "-D", c.data(), "-m", "fast", "-w", "stop").CombinedOutput(); err != nil {
		return fmt.Errorf("pg_ctl stop: %v: %s", err, out)
	}
	return nil
}

// Remove stops postgres when it runs and removes the folder.
func (c *Cluster) Remove() error {
	if _, err := os.Stat(filepath.Join(c.data(), "postmaster.pid")); err == nil {
		_ = c.Stop()
	}
	return os.RemoveAll(c.Dir)
}

// URL returns the address of database db over TCP with the password, as Loupe's
// server.database takes it.
func (c *Cluster) URL(db string) string {
	return fmt.Sprintf("postgres://%s:%s@127.0.0.1:%d/%s?sslmode=disable", User, Password, c.Port, db)
}

// CreateDB makes a new empty database and returns its URL.
func (c *Cluster) CreateDB(ctx context.Context, name string) (string, error) {
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return "", fmt.Errorf("connecting to the test cluster: %w", err)
	}
	defer conn.Close(ctx)
	// FILE_COPY (PostgreSQL 15 and later) copies the small template faster than WAL_LOG.
	create := "CREATE DATABASE " + pgx.Identifier{name}.Sanitize()
	if _, err := conn.Exec(ctx, create+" STRATEGY FILE_COPY"); err != nil {
		if _, err := conn.Exec(ctx, create); err != nil {
			return "", fmt.Errorf("creating database %s: %w", name, err)
		}
	}
	return c.URL(name), nil
}

// data is the data directory.
func (c *Cluster) data() string { return filepath.Join(c.Dir, "data") }

// command runs one of the cluster's programs, as the folder's owner.
func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	argv := append(append(append([]string{}, c.asUser...), filepath.Join(c.bin, name)), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	return cmd
}

// tail is the end of a log, for an error.
func tail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 2000 {
		s = s[len(s)-2000:]
	}
	if s == "" {
		return ""
	}
	return "\nlog:\n" + s
}

// freePort returns a loopback TCP port nobody listens on now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
