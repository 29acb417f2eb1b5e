package server

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"loupe/server/config"
	"loupe/server/testenv/pgtest"
)

// The benchmarks that measure a server's memory and CPU beside a peer run it in a child process
// of the test binary, so that its RSS and CPU time are its own and not the load generator's.

// TestMain serves Loupe for the stream benchmark when started as its child process
// (startBenchServer); otherwise it runs the tests.
func TestMain(m *testing.M) {
	if os.Getenv("LOUPE_BENCH_SERVE") != "" {
		serveBench()
		return
	}
	code := m.Run()
	pgtest.Stop() // the throw-away PostgreSQL cluster of the shared-state tests
	os.Exit(code)
}

// serveBench serves a Loupe server configured as `loupe` runs it (the chat paced at 40
// tokens/s, logging discarded), prints its address and, on a second loopback port, net/http/pprof
// (for the benchmark's heap profile), and serves until its stdin closes.
func serveBench() {
	settings := config.Default()
	// The benchmark is one client making 2,000 calls at once, as 2,000 users would: the
	// per-user rate limit (50/s, burst 100) is lifted.
	settings.Server.Limits.Rate, settings.Server.Limits.Burst = 1e6, 1e6
	// The replicas benchmark (startBenchServerEnv) names the store and the shared secret key.
	settings.Server.DataDir = os.Getenv("LOUPE_BENCH_DATA")
	settings.Server.Database = os.Getenv("LOUPE_BENCH_DATABASE")
	settings.Server.SecretKeyValue = os.Getenv("LOUPE_SECRET_KEY")
	// and its write rounds are one client address with 4,096 sandbox sessions.
	settings.Server.Sandbox.MaxSessionsPerClient = 1 << 20
	if err := settings.ResolveCredentials(); err != nil {
		fmt.Println("ERROR", err)
		return
	}
	srv, err := New(Config{Settings: settings, ChatTokensPerSecond: 40, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		fmt.Println("ERROR", err)
		return
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("ERROR", err)
		return
	}
	pl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("ERROR", err)
		return
	}
	debug := http.NewServeMux()
	debug.HandleFunc("/debug/pprof/", pprof.Index)
	debug.HandleFunc("/debug/pprof/profile", pprof.Profile)
	go func() { _ = http.Serve(pl, debug) }()
	fmt.Println("ADDR", l.Addr().String(), pl.Addr().String())
	done := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); close(done) }()
	go func() { _ = (&http.Server{Handler: srv}).Serve(l) }()
	<-done
}

// benchServer is a Loupe server in a child process.
type benchServer struct {
	url, debug string
	pid        int
	stop       func()
}

// startBenchServer runs a Loupe server in a child process, so that its RSS is its own and not
// the load generator's.
func startBenchServer(b *testing.B) *benchServer { return startBenchServerEnv(b) }

// startBenchServerEnv is startBenchServer with env added to the child's environment:
// LOUPE_BENCH_DATA (a data directory), LOUPE_BENCH_DATABASE (server.database) and
// LOUPE_SECRET_KEY.
func startBenchServerEnv(b *testing.B, env ...string) *benchServer {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), "LOUPE_BENCH_SERVE=1"), env...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatalf("starting the server process: %v", err)
	}
	var once sync.Once
	stop := func() { once.Do(func() { stdin.Close(); _ = cmd.Wait() }) }
	b.Cleanup(stop)
	line, err := bufio.NewReader(stdout).ReadString('\n')
	f := strings.Fields(line)
	if err != nil || len(f) != 3 || f[0] != "ADDR" {
		b.Fatalf("the server process said %q (%v)", line, err)
	}
	srv := &benchServer{url: "http://" + f[1], debug: "http://" + f[2], pid: cmd.Process.Pid, stop: stop}
	srv.settle()
	return srv
}

// settle waits until the server has finished its start-up work: it compresses the catalog
// with brotli in the background, which takes tens of MB for a few seconds.
func (s *benchServer) settle() {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		req, _ := http.NewRequest(http.MethodGet, s.url+"/catalog.json", nil)
		req.Header.Set("Accept-Encoding", "br")
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			continue
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.Header.Get("Content-Encoding") == "br" {
			break
		}
	}
	waitIdle(s.pid)
}

// waitIdle waits (up to a minute) until a process uses under 5% of a core over 200 ms: a
// server's start-up work (brotli at its best quality for every catalog resource, which goes on
// in the background after /catalog.json has its own) must not run during a measured round, where
// it took CPU from whichever round it overlapped.
func waitIdle(pid int) {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		before := cpuSeconds(pid)
		time.Sleep(200 * time.Millisecond)
		if cpuSeconds(pid)-before < 0.01 {
			return
		}
	}
}

// rss returns a process's resident set size in MB, from /proc/<pid>/status.
func rss(pid int) float64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return float64(kb) / 1024
		}
	}
	return 0
}

// cpuSeconds returns the CPU time (user and system) a process has used, from /proc/<pid>/stat:
// unlike the times to first token, it hardly depends on what else the machine runs.
func cpuSeconds(pid int) float64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
	_, rest, _ := strings.Cut(string(data), ") ")
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return (utime + stime) / 100 // USER_HZ, 100 on Linux
}

// saveProfile saves what a GET of u (a net/http/pprof address) answers to path.
func saveProfile(u, path string) error {
	resp, err := http.Get(u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
