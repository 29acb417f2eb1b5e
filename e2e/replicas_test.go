package e2e

import (
	"fmt"
	"io"
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

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"golang.org/x/crypto/bcrypt"

	"loupe/server/testenv/nginxtest"
	"loupe/server/testenv/pgtest"
)

// replicaSet is three Loupe processes on one PostgreSQL database with one secret key, behind
// nginx round-robin, all on loopback: the deployment the README describes for N replicas.
type replicaSet struct {
	t      *testing.T
	bin    string   // the loupe binary (loupeBinary)
	env    []string // the environment every replica starts with
	config string   // the configuration file every replica reads
	addrs  []string // each replica's address, kept across restarts (nginx names them)
	cmds   []*exec.Cmd
	logs   []*strings.Builder // each replica's output, for a failure's message
	front  string             // nginx's base URL
}

// replicaRate and replicaBurst are the configured rate limit the test measures across replicas:
// the burst holds the session's own checks (about 60 proxied calls in a few seconds on a fast
// machine), so that only the measurement meets the limit.
const replicaRate, replicaBurst = 50, 100

// replicaOptions is what a replicas test needs of its deployment beyond the common part.
type replicaOptions struct {
	// Login asks for a name and password (access mode users; the user alice, password "e2e
	// password"), as a deployment open to a team does; false lets everyone in (mode none).
	Login bool
	// ChatPace is the built-in chat model's tokens per second; 0 leaves the default (40).
	ChatPace float64
}

// startReplicas starts three replicas on a new database of the package's throw-away PostgreSQL
// cluster, and nginx in front of them.
func startReplicas(t *testing.T, opt replicaOptions) *replicaSet {
	t.Helper()
	dir := t.TempDir()
	bin, err := loupeBinary() // static_test.go's, built once per run
	if err != nil {
		t.Fatal(err)
	}
	db := pgtest.DB(t)
	rs := &replicaSet{t: t, bin: bin, config: filepath.Join(dir, "loupe.yaml"),
		env: append(os.Environ(), "LOUPE_DATABASE_URL="+db, "LOUPE_SECRET_KEY=e2e-replicas-secret-key-of-at-least-32-bytes")}
	for range 3 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		rs.addrs = append(rs.addrs, l.Addr().String())
		l.Close()
	}
	rs.cmds, rs.logs = make([]*exec.Cmd, 3), make([]*strings.Builder, 3)
	rs.front = nginxtest.Start(t, rs.addrs, nginxtest.Options{ForwardedFor: true})
	conf := fmt.Sprintf("server:\n  public_url: %s\n  access:\n    trusted_proxies: [127.0.0.1]\n  limits:\n    rate: %d\n    burst: %d\n",
		rs.front, replicaRate, replicaBurst)
	if opt.Login {
		hash, _ := bcrypt.GenerateFromPassword([]byte("e2e password"), bcrypt.MinCost)
		users := filepath.Join(dir, "users")
		if err := os.WriteFile(users, []byte("alice:"+string(hash)+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		conf = strings.Replace(conf, "  access:\n", "  access:\n    mode: users\n    users_file: "+users+"\n", 1)
	}
	if opt.ChatPace > 0 {
		conf += fmt.Sprintf("  sandbox:\n    chat_tokens_per_second: %g\n", opt.ChatPace)
	}
	if err := os.WriteFile(rs.config, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	// The replicas start together: each compiles the catalog, which takes seconds.
	for i := range rs.addrs {
		rs.launch(i)
	}
	for i := range rs.addrs {
		rs.waitUp(i)
	}
	return rs
}

// start starts replica i on its address and waits until it answers /healthz.
func (rs *replicaSet) start(i int) {
	rs.t.Helper()
	rs.launch(i)
	rs.waitUp(i)
}

// launch starts replica i's process on its address.
func (rs *replicaSet) launch(i int) {
	t := rs.t
	t.Helper()
	cmd := exec.Command(rs.bin, "-addr", rs.addrs[i], "-config", rs.config)
	cmd.Env = rs.env
	log := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	rs.cmds[i], rs.logs[i] = cmd, log
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
}

// waitUp waits until replica i answers /healthz.
func (rs *replicaSet) waitUp(i int) {
	t := rs.t
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get("http://" + rs.addrs[i] + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		if rs.cmds[i].ProcessState != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("replica %d did not answer /healthz on %s within 60 s:\n%s", i, rs.addrs[i], rs.logs[i].String())
}

// kill ends replica i with SIGKILL, as a crash or an OOM kill would.
func (rs *replicaSet) kill(i int) {
	rs.t.Helper()
	if err := rs.cmds[i].Process.Signal(syscall.SIGKILL); err != nil {
		rs.t.Fatal(err)
	}
	_ = rs.cmds[i].Wait()
}

// TestReplicasShareOneSession is issue 35's end-to-end test: three replicas on PostgreSQL
// behind nginx. A browser logs in, signs in with OAuth to the script sandbox, creates a
// project and upgrades the cluster; one replica is killed with SIGKILL; every later request,
// on the other two, sees the same login, grant and state; the killed replica, restarted,
// rejoins and sees them too; and the rate limit measured through all three is the configured
// one ±10%.
func TestReplicasShareOneSession(t *testing.T) {
	rs := startReplicas(t, replicaOptions{Login: true})
	ctx := newBrowser(t)
	tctx := within(t, ctx, 120*time.Second)
	if err := chromedp.Do(tctx,
		chromedp.Navigate(rs.front+"/script/projects.create"), chromedp.WaitVisible(chromedp.ID("login")),
		chromedp.SendKeys(chromedp.CSS(`input[name="name"]`), "alice"),
		chromedp.SendKeys(chromedp.CSS(`input[name="password"]`), "e2e password"),
		chromedp.Submit(chromedp.ID("login")),
		chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")), chromedp.WaitVisible(chromedp.ID("side")),
	); err != nil {
		t.Fatalf("logging in through nginx: %v", err)
	}
	signInToSandbox(t, ctx, "") // from the operation's own link, back to the operation
	// call makes a request from the page (its cookies, same origin) and returns "status body".
	call := func(method, path string) string {
		t.Helper()
		js := fmt.Sprintf(`fetch(%q, {method: %q, headers: {"Content-Type": "application/json"}, body: %s}).then(async r => r.status + " " + await r.text())`,
			path, method, map[bool]string{true: `"{}"`, false: "undefined"}[method == "POST"])
		out, err := chromedp.Run(within(t, ctx, 30*time.Second), chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s %s from the page: %v", method, path, err)
		}
		return out
	}
	if got := call("GET", "/oauth/status?api=script"); !strings.Contains(got, `"signedIn":true`) {
		t.Fatalf("after the consent: /oauth/status says %.300s; want signed in", got)
	}
	created := call("POST", "/proxy/script/v1/projects")
	id := between(created, `"scriptId":"`, `"`)
	if !strings.HasPrefix(created, "200 ") || id == "" {
		t.Fatalf("creating a project: got %.300s; want 200 and a scriptId", created)
	}
	if got := call("POST", "/proxy/cluster/_plugins/_security/api/_upgrade_perform"); !strings.HasPrefix(got, "200 ") {
		t.Fatalf("upgrading the cluster: got %.300s; want 200", got)
	}

	// same checks the login, the grant and the state through nginx, enough times that every
	// live replica answers some.
	same := func(when string) {
		t.Helper()
		for i := range 9 {
			if got := call("GET", "/proxy/script/v1/projects/"+id); !strings.HasPrefix(got, "200 ") || !strings.Contains(got, id) {
				t.Fatalf("%s, call %d: the project: got %.300s; want 200 and the project", when, i, got)
			}
			if got := call("GET", "/proxy/cluster/_plugins/_security/api/_upgrade_check"); !strings.Contains(got, `"upgradeAvailable":false`) {
				t.Fatalf("%s, call %d: the upgrade check: got %.300s; want nothing left to upgrade", when, i, got)
			}
			if got := call("GET", "/oauth/status?api=script"); !strings.HasPrefix(got, "200 ") || !strings.Contains(got, `"signedIn":true`) {
				t.Fatalf("%s, call %d: the grant: got %.300s; want signed in", when, i, got)
			}
		}
	}
	same("before any replica died")
	rs.kill(0)
	same("after replica 0 was killed")

	rs.start(0)
	jar, err := chromedp.Call(within(t, ctx, 10*time.Second), network.GetCookies, network.GetCookiesParams{URLs: []string{rs.front}})
	if err != nil {
		t.Fatal(err)
	}
	var header []string
	for _, c := range jar.Cookies {
		header = append(header, c.Name+"="+c.Value)
	}
	cookie := strings.Join(header, "; ")
	// The restarted replica, asked directly, knows the login, the grant and the state.
	direct := func(path string) string {
		req, _ := http.NewRequest("GET", "http://"+rs.addrs[0]+path, nil)
		req.Header.Set("Cookie", cookie)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("GET %s on the restarted replica: %v", path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return fmt.Sprintf("%d %s", resp.StatusCode, b)
	}
	if got := direct("/proxy/script/v1/projects/" + id); !strings.HasPrefix(got, "200 ") {
		t.Errorf("the restarted replica, the project: got %.300s; want 200", got)
	}
	if got := direct("/oauth/status?api=script"); !strings.Contains(got, `"signedIn":true`) {
		t.Errorf("the restarted replica, the grant: got %.300s; want signed in", got)
	}
	same("after replica 0 rejoined")

	// The rate limit, measured through nginx over the three: burst + rate × time, ±10%.
	time.Sleep(time.Second * replicaBurst / replicaRate) // the bucket refills after the checks above
	ok, limited, took := measureRate(t, rs.front, cookie, 3*time.Second)
	want := replicaBurst + replicaRate*took.Seconds()
	t.Logf("rate limit over three replicas: %d calls allowed, %d refused in %.2f s; configured %d/s, burst %d: %.0f allowed",
		ok, limited, took.Seconds(), replicaRate, replicaBurst, want)
	if float64(ok) < 0.9*want || float64(ok) > 1.1*want {
		t.Errorf("calls allowed through three replicas: got %d; want %.0f ±10%%", ok, want)
	}
}

// between returns the text of s between the first from and the next to, or "".
func between(s, from, to string) string {
	_, rest, ok := strings.Cut(s, from)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, to)
	return v
}

// measureRate calls through nginx as fast as 8 clients can with cookie for d and returns the
// calls answered 200 and those answered 429; any other answer fails the test.
func measureRate(t *testing.T, base, cookie string, d time.Duration) (ok, limited int, took time.Duration) {
	t.Helper()
	var mu sync.Mutex
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 10 * time.Second}
	start := time.Now()
	deadline := start.Add(d)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				req, _ := http.NewRequest("GET", base+"/proxy/entities/v1/entities:search?query=paris", nil)
				req.Header.Set("Cookie", cookie)
				resp, err := client.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				mu.Lock()
				switch resp.StatusCode {
				case 200:
					ok++
				case 429:
					limited++
				default:
					t.Errorf("a call while measuring the rate: got %d; want 200 or 429", resp.StatusCode)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return ok, limited, time.Since(start)
}
