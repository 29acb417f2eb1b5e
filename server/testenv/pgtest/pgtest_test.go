package pgtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { Main(m) }

// TestCluster: a database DB makes answers a query over TCP with the password; a wrong
// password is refused; after Stop nothing answers, after Start the data is still there.
func TestCluster(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := New(t)
	url, err := c.CreateDB(ctx, "one")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "CREATE TABLE x (v int); INSERT INTO x VALUES (42)"); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	if _, err := pgx.Connect(ctx, "postgres://loupe:wrong@127.0.0.1:"+itoa(c.Port)+"/one?sslmode=disable"); err == nil {
		t.Errorf("wrong password: got a connection; want it refused")
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := pgx.Connect(ctx, url); err == nil {
		t.Errorf("after Stop: got a connection; want none")
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	conn, err = pgx.Connect(ctx, c.URL("one"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var v int
	if err := conn.QueryRow(ctx, "SELECT v FROM x").Scan(&v); err != nil || v != 42 {
		t.Errorf("after Start: got %d, %v; want 42", v, err)
	}
}

// TestShared: two databases of the shared cluster are apart.
func TestShared(t *testing.T) {
	a, b := DB(t), DB(t)
	if a == b {
		t.Fatalf("got the same database twice: %s", a)
	}
	t.Logf("the shared cluster started in %s", StartTime())
}

func itoa(n int) string { return fmt.Sprint(n) }

// TestMissing: without PostgreSQL, Start says to run make deps.
func TestMissing(t *testing.T) {
	defer func(d string) { libDir = d }(libDir)
	libDir = t.TempDir()
	t.Setenv("PATH", t.TempDir())
	_, err := Start()
	if err == nil || !strings.Contains(err.Error(), "run `make deps`") {
		t.Errorf("got %v; want an error saying to run make deps", err)
	}
}

// TestOrphanSwept: a cluster whose test process is gone is stopped and removed when the next
// cluster starts; one whose process lives is left alone.
func TestOrphanSwept(t *testing.T) {
	orphan, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer orphan.Remove()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(orphan.Dir, ownerFile), []byte(itoa(gone.Process.Pid)), 0o644); err != nil {
		t.Fatal(err)
	}
	next := New(t)
	if _, err := os.Stat(orphan.Dir); !os.IsNotExist(err) {
		t.Errorf("the orphan's folder after the next Start: got %v; want it removed", err)
	}
	if conn, err := net.Dial("tcp", "127.0.0.1:"+itoa(orphan.Port)); err == nil {
		conn.Close()
		t.Errorf("the orphan's port %d after the next Start: got a connection; want none", orphan.Port)
	}
	if _, err := os.Stat(next.Dir); err != nil {
		t.Errorf("the live cluster's folder: %v; want it kept", err)
	}
}
