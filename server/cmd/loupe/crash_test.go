package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"loupe/server/sandbox/state"
	"loupe/server/sandbox/state/boltstore"
)

// TestCrashKeepsAcknowledgedWrites builds loupe once, then 20 times: starts it on a data
// directory, checks that every write acknowledged before the last kill is there, writes
// through the proxy (new script projects, and the seeded project's content) from two clients
// until it is killed with SIGKILL at a random moment. A last start finds every acknowledged
// write, and the database then passes bbolt's consistency check.
func TestCrashKeepsAcknowledgedWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the loupe binary 21 times")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "loupe")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data := filepath.Join(dir, "data")
	_, cookie := state.NewCookie(false)
	c := &crashClient{cookie: cookie.Name + "=" + cookie.Value, http: &http.Client{Timeout: 10 * time.Second}}

	config := filepath.Join(dir, "loupe.yaml") // no rate limit: the test calls as fast as it can
	if err := os.WriteFile(config, []byte("server:\n  limits:\n    rate: -1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var acked []string // titles of the projects whose creation was acknowledged
	ids := map[string]string{}
	lastContent := -1 // the last acknowledged content counter
	attempted := 0    // the content counter of the last write sent
	checked := 0      // acked[:checked] were found after an earlier restart
	for round := range 21 {
		base, cmd := startLoupe(t, bin, data, config)
		c.base = base
		// Everything acknowledged before the last kill is there; after the last, everything.
		if round == 20 {
			checked = 0
		}
		for _, title := range acked[checked:] {
			if got := c.title(t, ids[title]); got != title {
				t.Fatalf("round %d: project %s: got title %q; want %q (acknowledged before the kill)", round, ids[title], got, title)
			}
		}
		if lastContent >= 0 {
			n := c.contentCounter(t)
			if n < lastContent || n > attempted {
				t.Fatalf("round %d: content counter: got %d; want between %d (acknowledged) and %d (sent)", round, n, lastContent, attempted)
			}
			lastContent, attempted = n, n
		}
		checked = len(acked)
		if round == 20 {
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()
			break
		}
		// Write from two clients until the kill.
		var mu sync.Mutex
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for w := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					if w == 1 && i%2 == 0 {
						mu.Lock()
						attempted++
						n := attempted
						mu.Unlock()
						if c.putContent(n) {
							mu.Lock()
							lastContent = max(lastContent, n)
							mu.Unlock()
						}
						continue
					}
					title := fmt.Sprintf("crash-%d-%d-%d", round, w, i)
					if id, ok := c.create(title); ok {
						mu.Lock()
						acked = append(acked, title)
						ids[title] = id
						mu.Unlock()
					}
				}
			}()
		}
		time.Sleep(time.Duration(50+rand.IntN(400)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		close(stop)
		wg.Wait()
	}
	if len(acked) < 40 {
		t.Errorf("only %d writes acknowledged in 20 rounds; want the test to exercise more", len(acked))
	}
	db, err := bolt.Open(filepath.Join(data, boltstore.FileName), 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatalf("opening the database after the last kill: %v", err)
	}
	defer db.Close()
	if err := db.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			return err
		}
		return nil
	}); err != nil {
		t.Errorf("bbolt consistency check: %v", err)
	}
	t.Logf("%d projects and %d content changes acknowledged over 20 kills", len(acked), lastContent)
}

// startLoupe starts bin on a free loopback port with the data directory and waits until it
// answers /healthz.
func startLoupe(t *testing.T, bin, data, config string) (string, *exec.Cmd) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, "-addr", addr, "-data", data, "-config", config)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	base := "http://" + addr
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return base, cmd
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("loupe did not answer /healthz on %s within 30s", addr)
	return "", nil
}

// crashClient calls the script API through the proxy as one browser (its cookie).
type crashClient struct {
	base, cookie string
	http         *http.Client
}

// do sends a call and returns the status and body; an error (the server died) is status 0.
func (c *crashClient) do(method, path, body string) (int, string) {
	req, _ := http.NewRequestWithContext(context.Background(), method, c.base+"/proxy/script"+path, strings.NewReader(body))
	req.Header.Set("Cookie", c.cookie)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, ""
	}
	return resp.StatusCode, string(b)
}

// create makes a project; ok means the creation was acknowledged (200 with its ID).
func (c *crashClient) create(title string) (string, bool) {
	code, body := c.do("POST", "/v1/projects", `{"title":"`+title+`"}`)
	_, rest, _ := strings.Cut(body, `"scriptId":"`)
	id, _, _ := strings.Cut(rest, `"`)
	return id, code == 200 && id != ""
}

// title reads a project's title.
func (c *crashClient) title(t *testing.T, id string) string {
	code, body := c.do("GET", "/v1/projects/"+id, "")
	if code != 200 {
		t.Fatalf("GET project %s: got %d %s", id, code, body)
	}
	_, rest, _ := strings.Cut(body, `"title":"`)
	title, _, _ := strings.Cut(rest, `"`)
	return title
}

// seedContent is the seeded project's content path.
const seedContent = "/v1/projects/1qvD3r1OzRDGF_lHoS8HkAyJtK9gP3kVhDjK5xXzDgBm2bN3eRIqLkHzE/content"

// putContent saves the seeded project's code with the counter n in it.
func (c *crashClient) putContent(n int) bool {
	code, _ := c.do("PUT", seedContent, fmt.Sprintf(`{"files":[{"name":"appsscript","type":"JSON","source":"{\"timeZone\":\"UTC\",\"runtimeVersion\":\"V8\"}"},{"name":"Code","type":"SERVER_JS","source":"function counter() { return %d; }"}]}`, n))
	return code == 200
}

// contentCounter reads the counter back from the seeded project's code.
func (c *crashClient) contentCounter(t *testing.T) int {
	code, body := c.do("GET", seedContent, "")
	if code != 200 {
		t.Fatalf("GET content: got %d %s", code, body)
	}
	var n int
	_, rest, _ := strings.Cut(body, "return ")
	if _, err := fmt.Sscanf(rest, "%d", &n); err != nil {
		t.Fatalf("content: no counter in %s", body)
	}
	return n
}
