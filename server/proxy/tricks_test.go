package proxy

import (
	"bufio"
	"bytes"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// trick is one line of testdata/tricks.txt.
type trick struct {
	line   string
	method string
	target string
	header [][2]string
}

func loadTricks(t *testing.T) []trick {
	data, err := os.ReadFile("testdata/tricks.txt")
	if err != nil {
		t.Fatal(err)
	}
	r := strings.NewReplacer("{CR}", "\r", "{LF}", "\n", "{TAB}", "\t", "{NUL}", "\x00")
	var out []trick
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, " | ")
		method, target, _ := strings.Cut(parts[0], " ")
		tr := trick{line: line, method: method, target: r.Replace(target)}
		for _, h := range parts[1:] {
			k, v, _ := strings.Cut(h, ": ")
			tr.header = append(tr.header, [2]string{k, v})
		}
		out = append(out, tr)
	}
	return out
}

// sendRaw writes the request bytes as they are, so nothing cleans the target on the way.
func sendRaw(t *testing.T, addr string, tr trick) (status int, contentType string) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	var b bytes.Buffer
	b.WriteString(tr.method + " " + tr.target + " HTTP/1.1\r\nHost: loupe.test\r\nConnection: close\r\n")
	chunked := false
	for _, h := range tr.header {
		b.WriteString(h[0] + ": " + h[1] + "\r\n")
		chunked = chunked || strings.EqualFold(h[0], "Transfer-Encoding")
	}
	b.WriteString("\r\n")
	if chunked {
		b.WriteString("0\r\n\r\n")
	}
	if _, err := conn.Write(b.Bytes()); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("%s: reading the answer: %v", tr.line, err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Content-Type")
}

// TestTricksAreRefused sends every path, header and URL trick of testdata/tricks.txt: each
// must be answered 4xx without the upstream seeing a request.
func TestTricksAreRefused(t *testing.T) {
	h := newHarness(t, nil)
	tricks := loadTricks(t)
	if len(tricks) < 40 {
		t.Fatalf("got %d tricks; want at least 40", len(tricks))
	}
	addr := strings.TrimPrefix(h.URL, "http://")
	json := 0
	for _, tr := range tricks {
		status, ct := sendRaw(t, addr, tr)
		if status < 400 || status > 499 {
			t.Errorf("%s: got status %d; want a 4xx refusal", tr.line, status)
		}
		if ct == "application/json" {
			json++
		}
		if n := h.backend.hits.Load(); n != 0 {
			t.Fatalf("%s: got %d upstream requests; want none", tr.line, n)
		}
	}
	t.Logf("%d tricks refused, %d of them with Loupe's JSON error (the rest by net/http itself)", len(tricks), json)

	// The same server still forwards a plain call.
	if status, _ := sendRaw(t, addr, trick{method: "GET", target: "/proxy/entities/v1/entities:search?query=x"}); status != 200 {
		t.Errorf("plain call: got %d; want 200", status)
	}
}
