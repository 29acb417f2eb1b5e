// Package nginxtest runs nginx for tests and benchmarks: a reverse proxy on a free loopback
// port in front of one or several upstreams (round-robin), as a deployment puts one in front
// of Loupe. make deps installs Debian's nginx-light when nginx is missing; without it the test
// fails saying so, never skips.
package nginxtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Binary finds nginx: on PATH, else Debian's /usr/sbin/nginx.
func Binary() (string, error) {
	if bin, err := exec.LookPath("nginx"); err == nil {
		return bin, nil
	}
	if _, err := os.Stat("/usr/sbin/nginx"); err == nil {
		return "/usr/sbin/nginx", nil
	}
	return "", fmt.Errorf("nginx is not installed: run `make deps` (Debian: apt-get install -y nginx-light)")
}

// Options is what the proxy does beyond passing every request on.
type Options struct {
	// Workers is nginx's worker_processes. Empty means auto.
	Workers string
	// ForwardedFor sets X-Forwarded-For to the client's address, as a proxy that Loupe's
	// trusted_proxies names does.
	ForwardedFor bool
	// FailTimeout is how long an upstream that failed is left out of the rotation. Zero means
	// 2 s, so that a dead replica costs one failed connection every 2 s, retried on the next.
	FailTimeout time.Duration
}

// Start runs nginx in front of upstreams (host:port each, round-robin; a request whose
// upstream refuses the connection goes to the next) until the test ends, and returns its base
// URL.
func Start(tb testing.TB, upstreams []string, opt Options) string {
	tb.Helper()
	bin, err := Binary()
	if err != nil {
		tb.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	if opt.Workers == "" {
		opt.Workers = "auto"
	}
	if opt.FailTimeout == 0 {
		opt.FailTimeout = 2 * time.Second
	}
	var servers strings.Builder
	for _, u := range upstreams {
		fmt.Fprintf(&servers, "    server %s max_fails=1 fail_timeout=%ds;\n", u, int(opt.FailTimeout.Seconds()))
	}
	forwarded := ""
	if opt.ForwardedFor {
		forwarded = "      proxy_set_header X-Forwarded-For $remote_addr;\n"
	}
	dir := tb.TempDir()
	conf := fmt.Sprintf(`worker_processes %[5]s;
daemon off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path %[1]s/body; proxy_temp_path %[1]s/proxy; fastcgi_temp_path %[1]s/fastcgi;
  uwsgi_temp_path %[1]s/uwsgi; scgi_temp_path %[1]s/scgi;
  upstream up {
%[2]s    keepalive 256;
  }
  server {
    listen %[3]s;
    client_max_body_size 64m;
    location / {
      proxy_pass http://up;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
%[4]s      proxy_next_upstream error timeout;
      proxy_buffering off;
      proxy_read_timeout 60s;
    }
  }
}
`, dir, servers.String(), addr, forwarded, opt.Workers)
	confPath := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(bin, "-c", confPath, "-p", dir, "-e", filepath.Join(dir, "error.log"))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		tb.Fatalf("starting nginx: %v", err)
	}
	tb.Cleanup(func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() })
	for range 250 {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return "http://" + addr
		}
		time.Sleep(20 * time.Millisecond)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
	tb.Fatalf("nginx did not start on %s: %s", addr, log)
	return ""
}
