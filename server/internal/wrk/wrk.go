// Package wrk runs the wrk HTTP load generator for Loupe's side-by-side benchmarks (the proxy
// beside nginx, the sandboxes beside Prism) and reads its figures.
package wrk

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Path returns wrk's path, or fails the benchmark saying how to install it.
func Path(b testing.TB) string {
	p, err := exec.LookPath("wrk")
	if err != nil {
		b.Fatal("wrk is not installed; the side-by-side benchmarks load the servers with it. Run `make deps-bench` (Debian: apt-get install -y wrk)")
	}
	return p
}

// Round runs wrk at path (2 threads, conns connections, a 10 s request time-out) against u for
// d, with extra arguments (headers, a Lua script), and returns requests per second and the
// 99th percentile latency in ms. A socket error or a non-2xx answer is an error.
func Round(path, u string, conns int, d time.Duration, extra ...string) (rps, p99 float64, err error) {
	args := append([]string{"-t2", fmt.Sprintf("-c%d", conns), fmt.Sprintf("-d%ds", max(1, int(d.Seconds()))), "--timeout", "10s", "--latency"}, extra...)
	out, err := exec.Command(path, append(args, u)...).CombinedOutput()
	if err != nil {
		return 0, 0, fmt.Errorf("wrk: %v: %s", err, out)
	}
	text := string(out)
	if strings.Contains(text, "Non-2xx") || strings.Contains(text, "Socket errors") {
		return 0, 0, fmt.Errorf("wrk saw errors: %s", text)
	}
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "Requests/sec:":
			rps, _ = strconv.ParseFloat(f[1], 64)
		case len(f) == 2 && f[0] == "99%":
			p99 = Millis(f[1])
		}
	}
	if rps == 0 {
		return 0, 0, fmt.Errorf("no Requests/sec in wrk's output: %s", text)
	}
	return rps, p99, nil
}

// Millis reads a wrk duration (850.00us, 8.09ms, 1.20s) in milliseconds; 0 when it is none.
func Millis(s string) float64 {
	for _, u := range []struct {
		suffix string
		ms     float64
	}{{"us", 0.001}, {"ms", 1}, {"s", 1000}} {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f * u.ms
		}
	}
	return 0
}
