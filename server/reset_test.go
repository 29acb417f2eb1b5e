package server

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestUpstreamResetBeforeHeaders: an upstream that resets the connection before any header: the
// client gets a 502 JSON naming the API (not a dropped connection), and the audit line says 502.
func TestUpstreamResetBeforeHeaders(t *testing.T) {
	for _, partial := range []string{"", "HTTP/1.1 200 OK\r\n", "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n", "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"} {
		t.Run(strings.TrimSpace(partial), func(t *testing.T) { testResetBeforeHeaders(t, partial) })
	}
}

func testResetBeforeHeaders(t *testing.T, partial string) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		io.WriteString(conn, partial)
		conn.(*net.TCPConn).SetLinger(0)
		conn.Close()
	}))
	defer up.Close()
	_, ts, logs := serve(t, "apis:\n  chat:\n    base_url: "+up.URL+"\n    credential: {value: reset-SECRET-key}\n    allow_undocumented: true\n", nil)
	for _, method := range []string{"GET", "POST"} {
		path := "/proxy/chat/v1/models"
		var body io.Reader
		if method == "POST" {
			path, body = "/proxy/chat/v1/chat/completions", strings.NewReader(`{"model":"v0-1.5-md","messages":[]}`)
		}
		req, _ := http.NewRequest(method, ts.URL+path, body)
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatalf("%s: got %v; want a 502 answer", method, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 502 || !strings.Contains(string(b), `"api":"chat"`) {
			t.Errorf("%s: got %d %s; want a 502 JSON naming chat", method, resp.StatusCode, b)
		}
	}
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, `msg="proxy call"`) && !strings.Contains(l, "status=502") {
			t.Errorf("audit: got %q; want status=502", l)
		}
	}
}
