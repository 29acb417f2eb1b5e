package server

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loupe/server/internal/wrk"
	"loupe/server/sandbox/state"
	"loupe/server/testenv/nginxtest"
	"loupe/server/testenv/pgtest"
)

// replicaSeedContent is the seeded script project's content, which the write benchmark
// replaces: a write that does not grow the session's state.
const replicaSeedContent = "/proxy/script/v1/projects/1qvD3r1OzRDGF_lHoS8HkAyJtK9gP3kVhDjK5xXzDgBm2bN3eRIqLkHzE/content"

// BenchmarkReplicasBesideBbolt measures what sharing the state in PostgreSQL costs: sandbox
// writes per second (the script project's content replaced through the proxy, each request
// by the next of 4,096 sandbox sessions, so that two replicas rarely change one session at
// once, which one of them would refuse with 409 by design) and
// proxy calls per second (a stateless sandbox's search), with wrk, 32 connections, 3 s rounds,
// medians of 3, for one Loupe on bbolt (the anchor, the embedded default), one Loupe on
// PostgreSQL, and three Loupes on PostgreSQL behind nginx round-robin. Each Loupe runs in a
// child process (startBenchServer), on these 2 cores with the load generator and the
// database: the three-replica figure says what replicas cost on one machine, not what they
// gain on three. Run it under the heavy lock.
func BenchmarkReplicasBesideBbolt(b *testing.B) {
	wrkPath := wrk.Path(b)
	db := pgtest.DB(b)
	_, cookie := state.NewCookie(false)
	dir := b.TempDir()
	lua := filepath.Join(dir, "put.lua")
	body := `{"files":[{"name":"appsscript","type":"JSON","source":"{\"timeZone\":\"UTC\",\"runtimeVersion\":\"V8\"}"},{"name":"Code","type":"SERVER_JS","source":"function f() { return 1; }"}]}`
	if err := os.WriteFile(lua, []byte(writeScript(body, 4096)), 0o644); err != nil {
		b.Fatal(err)
	}
	setups := []struct {
		name     string
		env      []string
		replicas int
	}{
		{"bbolt, 1 Loupe", []string{"LOUPE_BENCH_DATA=" + filepath.Join(dir, "data")}, 1},
		{"PostgreSQL, 1 Loupe", []string{"LOUPE_BENCH_DATABASE=" + db}, 1},
		{"PostgreSQL, 3 Loupes", []string{"LOUPE_BENCH_DATABASE=" + db}, 3},
	}
	type figures struct{ writes, calls []float64 }
	got := make([]figures, len(setups))
	for i, s := range setups {
		var addrs []string
		for range s.replicas {
			srv := startBenchServerEnv(b, append(s.env, "LOUPE_SECRET_KEY=bench-replicas-secret-key-of-32-bytes-at-least")...)
			addrs = append(addrs, strings.TrimPrefix(srv.url, "http://"))
		}
		base := "http://" + addrs[0]
		if s.replicas > 1 {
			base = nginxtest.Start(b, addrs, nginxtest.Options{Workers: "1"})
		}
		head := []string{"-H", "Cookie: " + cookie.Name + "=" + cookie.Value}
		for round := range 4 { // the first round warms up
			w, _, err := wrk.Round(wrkPath, base+replicaSeedContent, 32, 3*time.Second, "-s", lua)
			if err != nil {
				b.Fatalf("%s, writes: %v", s.name, err)
			}
			c, _, err := wrk.Round(wrkPath, base+"/proxy/entities/v1/entities:search?query=paris", 32, 3*time.Second, head...)
			if err != nil {
				b.Fatalf("%s, calls: %v", s.name, err)
			}
			if round > 0 {
				got[i].writes = append(got[i].writes, w)
				got[i].calls = append(got[i].calls, c)
			}
		}
	}
	anchor := got[0]
	for i, s := range setups {
		w, c := medianOf(got[i].writes), medianOf(got[i].calls)
		b.Logf("%-22s sandbox writes %7.0f/s (%.2fx bbolt), proxy calls %7.0f/s (%.2fx bbolt); rounds %v / %v",
			s.name, w, w/medianOf(anchor.writes), c, c/medianOf(anchor.calls), rounded(got[i].writes), rounded(got[i].calls))
	}
	for b.Loop() { // the figures are the rounds above: run it with -benchtime 1x
	}
}

// rounded prints figures without decimals.
func rounded(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprintf("%.0f", x)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// writeScript is wrk's Lua script for the write rounds: PUT body, each request with the next
// of n sandbox session cookies, each of wrk's threads starting at its own place in them.
func writeScript(body string, n int) string {
	var cookies strings.Builder
	for range n {
		_, c := state.NewCookie(false)
		fmt.Fprintf(&cookies, "%q,\n", c.Name+"="+c.Value)
	}
	return fmt.Sprintf(`local cookies = {
%s}
local body = %q
local threads = 0
function setup(thread) thread:set("id", threads); threads = threads + 1 end
function init(args) n = id * %d end
function request()
  n = n + 1
  return wrk.format("PUT", nil, {["Cookie"] = cookies[(n %% #cookies) + 1], ["Content-Type"] = "application/json"}, body)
end
`, cookies.String(), body, n/2)
}
