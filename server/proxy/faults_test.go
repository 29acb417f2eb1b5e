package proxy

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// rawUpstream is an upstream that answers each connection by hand, after reading the request
// head: for answers no http.Handler can give (garbage, resets, lies about the length).
func rawUpstream(t *testing.T, answer func(c net.Conn)) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil || line == "\r\n" {
						break
					}
				}
				answer(c)
			}()
		}
	}()
	return "http://" + l.Addr().String()
}

func reset(c net.Conn) {
	c.(*net.TCPConn).SetLinger(0)
	c.Close()
}

// TestFaultMatrix is what the client gets, and what the audit line says, for each way an
// upstream (or the network, or the client) can fail.
func TestFaultMatrix(t *testing.T) {
	const mib64 = 64 << 20
	// An upstream that resets just after its headers is answered with a 502 only while the
	// headers are still held back (headerHold, 2ms): hold them longer here, so that a loaded
	// machine cannot let the hold expire before the reset arrives.
	defer func(h time.Duration) { headerHold = h }(headerHold)
	headerHold = time.Second
	raw := func(f func(net.Conn)) func(*testing.T, *Config, *backend) {
		return func(t *testing.T, c *Config, _ *backend) { c.APIs = testAPIs(rawUpstream(t, f)) }
	}
	handler := func(f http.HandlerFunc) func(*testing.T, *Config, *backend) {
		return func(_ *testing.T, _ *Config, b *backend) { b.setHandler(f) }
	}
	tests := []struct {
		name     string
		upstream func(*testing.T, *Config, *backend)
		timeout  time.Duration // the client gives up after this long; 0: never
		status   int           // what the client gets; 0: no answer at all
		body     []string      // what the body holds
		cut      bool          // the body ends with an error, not a clean end
		audit    []string
	}{
		{"down", func(t *testing.T, c *Config, _ *backend) {
			l, _ := net.Listen("tcp", "127.0.0.1:0")
			addr := l.Addr().String()
			l.Close()
			c.APIs = testAPIs("http://" + addr)
		}, 0, 502, []string{`"api":"chat"`, "connection refused", "apis.chat.base_url"}, false, []string{"status=502", `outcome="upstream connection refused"`}},
		{"slow: no headers in time", handler(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
		}), 0, 504, []string{`"api":"chat"`, "did not answer within 300ms", "server.limits.upstream_timeout"}, false, []string{"status=504", `outcome="upstream time-out"`}},
		{"reset before headers", raw(reset), 0, 502, []string{`"api":"chat"`, "connection reset"}, false, []string{"status=502", `outcome="upstream connection reset"`}},
		{"reset after headers, before the body", raw(func(c net.Conn) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n")
			reset(c)
		}), 0, 502, []string{`"api":"chat"`, "failed after its headers"}, false, []string{"status=502", "after its headers"}},
		{"reset mid-stream", raw(func(c net.Conn) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: one\n\n")
			time.Sleep(50 * time.Millisecond)
			reset(c)
		}), 0, 200, []string{"data: one\n\n", "event: error\ndata: {\"error\":\"chat: the API's stream broke before its end (connection reset); Loupe closed it\"", `"source":"loupe proxy"`}, false,
			[]string{"status=200", `outcome="upstream connection reset mid-stream"`}},
		{"closed mid-stream, before the last chunk", raw(func(c net.Conn) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n7\r\ndata: o\r\n")
			time.Sleep(50 * time.Millisecond)
			io.WriteString(c, "4\r\nne\n\n\r\n")
		}), 0, 200, []string{"data: one\n\n", "event: error", "(connection closed before the body's end)", `"check":"that the API is up`}, false,
			[]string{"status=200", `outcome="upstream connection closed before the body's end mid-stream"`}},
		{"reset mid-body, not a stream", raw(func(c net.Conn) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n")
			time.Sleep(50 * time.Millisecond)
			reset(c)
		}), 0, 200, []string{`{"a":`}, true, []string{"status=200", "outcome=aborted"}},
		{"5xx", handler(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(503)
			io.WriteString(w, `{"error":{"message":"overloaded"}}`)
		}), 0, 503, []string{"overloaded"}, false, []string{"status=503"}},
		{"garbage", raw(func(c net.Conn) { io.WriteString(c, "SSH-2.0-OpenSSH_9.6\r\n\x00\x01\x02garbage\r\n\r\n") }),
			0, 502, []string{`"api":"chat"`, "not an HTTP answer"}, false, []string{"status=502", `outcome="upstream not an HTTP answer"`}},
		{"truncated SSE", raw(func(c net.Conn) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\ndata: one\n\ndata: tw")
		}), 0, 200, []string{"data: one\n\ndata: tw"}, false, []string{"status=200"}},
		{"stalled SSE", handler(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: one\n\n")
			http.NewResponseController(w).Flush()
			<-r.Context().Done()
		}), 0, 200, []string{"data: one", "event: error", "server.limits.stream_idle_timeout"}, false, []string{"status=200"}},
		{"short Content-Length", raw(func(c net.Conn) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":")
		}), 0, 200, nil, true, []string{"status=200", "outcome=aborted"}},
		{"unrequested gzip", handler(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "br")
			io.WriteString(w, "\x1b\x00\x00")
		}), 0, 502, []string{`"api":"chat"`, "content encoding Loupe did not ask for"}, false, []string{"status=502", `outcome="encoding refused"`}},
		{"gzip it asked for is decoded", handler(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			gz := gzip.NewWriter(w)
			io.WriteString(gz, `{"plain":"text"}`)
			gz.Close()
		}), 0, 200, []string{`{"plain":"text"}`}, false, []string{"status=200"}},
		{"huge headers", raw(func(c net.Conn) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nX-Big: "+strings.Repeat("a", 2<<20)+"\r\n\r\n")
		}), 0, 502, []string{`"api":"chat"`, "headers too large"}, false, []string{"status=502", `outcome="upstream headers too large"`}},
		{"64 MiB body", handler(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Length", fmt.Sprint(mib64))
			chunk := []byte(strings.Repeat("0123456789abcdef", 4096))
			for n := 0; n < mib64; n += len(chunk) {
				w.Write(chunk)
			}
		}), 0, 200, nil, false, []string{"status=200", fmt.Sprintf("bytes=%d", mib64)}},
		{"client abort while waiting", handler(func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
		}), 200 * time.Millisecond, 0, nil, false, []string{"status=499", `outcome="client gone"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarnessWith(t, func(c *Config, b *backend) {
				// Only the rows about a time limit get a short one: on a loaded machine, 2 MiB of
				// headers or 64 MiB of body may take longer than 300ms to arrive.
				c.UpstreamTimeout, c.StreamIdleTimeout = 10*time.Second, 10*time.Second
				if strings.HasPrefix(tt.name, "slow") || strings.HasPrefix(tt.name, "stalled") {
					c.UpstreamTimeout, c.StreamIdleTimeout = 300*time.Millisecond, 300*time.Millisecond
				}
				tt.upstream(t, c, b)
			})
			ctx := context.Background()
			if tt.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.timeout)
				defer cancel()
			}
			req, _ := http.NewRequestWithContext(ctx, "GET", h.URL+"/proxy/chat/v1/stream", nil)
			resp, err := h.Client().Do(req)
			switch {
			case tt.status == 0 && err == nil:
				resp.Body.Close()
				t.Fatalf("got %d; want no answer", resp.StatusCode)
			case tt.status != 0 && err != nil:
				t.Fatalf("got %v; want %d", err, tt.status)
			}
			if err == nil {
				body, rerr := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != tt.status {
					t.Errorf("status: got %d; want %d (%.200s)", resp.StatusCode, tt.status, body)
				}
				if tt.status >= 500 && tt.status != 503 && resp.Header.Get("X-Loupe-Error") != "proxy" {
					t.Errorf("got no X-Loupe-Error; want the proxy's own JSON error")
				}
				for _, w := range tt.body {
					if !strings.Contains(string(body), w) {
						t.Errorf("body: got %.300q; want it to hold %q", body, w)
					}
				}
				if cut := rerr != nil && !errors.Is(rerr, io.EOF); cut != tt.cut {
					t.Errorf("body cut: got %v (%v); want %v", cut, rerr, tt.cut)
				}
				if tt.name == "64 MiB body" && len(body) != mib64 {
					t.Errorf("body: got %d bytes; want %d", len(body), mib64)
				}
			}
			deadline := time.Now().Add(5 * time.Second)
			for lastAudit(h) == "" && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			line := lastAudit(h)
			for _, w := range tt.audit {
				if !strings.Contains(line, w) {
					t.Errorf("audit: got %q; want it to hold %q", line, w)
				}
			}
		})
	}
}
