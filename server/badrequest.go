package server

import (
	"bytes"
	"encoding/json"
	"html/template"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// Go's HTTP server answers a request it cannot read before any handler sees it: a request
// line whose target has a malformed percent-escape (/%ZZ) gets a bare "400 Bad Request" in
// text, written straight to the connection. ClearBadRequests gives such a request Loupe's own
// clear answer instead: what is wrong with the address and what to do, as JSON in the proxy's
// error shape under /proxy/ and /sandbox/ (where a program is calling), as a page elsewhere.

// goBadRequest is what net/http writes to the connection for a request it cannot read
// (net/http's conn.serve; TestClearBadRequests fails if a Go release changes it).
const goBadRequest = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request"

// tailSize is how much of what a connection read is kept to find the request line that
// net/http refused: more than a request head, which is read before anything is refused.
const tailSize = 16 << 10

// ClearBadRequests wraps ln so that a request Go's HTTP server refuses for its malformed
// target is answered with Loupe's own error (see above); everything else passes as it is.
func ClearBadRequests(ln net.Listener) net.Listener { return clearListener{ln} }

type clearListener struct{ net.Listener }

func (l clearListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &clearConn{Conn: c}, nil
}

// clearConn keeps the tail of what was read, to find the refused request's line.
type clearConn struct {
	net.Conn
	mu   sync.Mutex
	tail []byte
}

func (c *clearConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.mu.Lock()
		in := p[:n]
		if len(in) > tailSize {
			in = in[len(in)-tailSize:]
		}
		if drop := len(c.tail) + len(in) - tailSize; drop > 0 {
			c.tail = append(c.tail[:0], c.tail[drop:]...)
		}
		c.tail = append(c.tail, in...)
		c.mu.Unlock()
	}
	return n, err
}

func (c *clearConn) Write(p []byte) (int, error) {
	if len(p) != len(goBadRequest) || string(p) != goBadRequest {
		return c.Conn.Write(p)
	}
	c.mu.Lock()
	target := refusedTarget(c.tail)
	c.mu.Unlock()
	if _, err := c.Conn.Write(badRequestAnswer(target)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// refusedTarget finds, in what the connection read, the last request line whose target
// net/http cannot parse, and returns that target; "" when there is none.
func refusedTarget(read []byte) string {
	lines := strings.Split(string(read), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		method, rest, ok := strings.Cut(strings.TrimSuffix(lines[i], "\r"), " ")
		if !ok || method == "" || strings.ContainsAny(method, " :/") {
			continue
		}
		target, proto, ok := strings.Cut(rest, " ")
		if !ok || !strings.HasPrefix(proto, "HTTP/") {
			continue
		}
		if _, err := url.ParseRequestURI(target); err != nil {
			return target
		}
	}
	return ""
}

// badEscape returns the first malformed percent-escape of s ("%ZZ", "%4" at the end), or "".
func badEscape(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		if i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			i += 2
			continue
		}
		return s[i:min(i+3, len(s))]
	}
	return ""
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// badRequestAnswer is the whole HTTP answer to a refused target.
func badRequestAnswer(target string) []byte {
	why := "the address is not a valid URL"
	check := "encode each part of the path and query (encodeURIComponent)"
	if esc := badEscape(target); esc != "" {
		why = "the address has a malformed percent-escape, " + strconv.Quote(esc) + ": a % must be followed by two hexadecimal digits"
		check = "write a literal % as %25, and encode each part of the path and query (encodeURIComponent)"
	}
	var body []byte
	var ctype, extra string
	path, _, _ := strings.Cut(target, "?")
	if strings.HasPrefix(path, "/proxy/") || strings.HasPrefix(path, "/sandbox/") {
		source, api := "loupe", ""
		if rest, ok := strings.CutPrefix(path, "/proxy/"); ok {
			source, api = "loupe proxy", strings.SplitN(rest, "/", 2)[0]
			extra = "X-Loupe-Error: proxy\r\n"
		}
		body, _ = json.Marshal(map[string]string{"error": why, "check": check, "api": api, "source": source})
		body = append(body, '\n')
		ctype = "application/json"
	} else {
		var b bytes.Buffer
		_ = badRequestPage.Execute(&b, struct{ Target, Why, Check string }{shorten(target), why, check})
		body, ctype = b.Bytes(), "text/html; charset=utf-8"
		extra = "Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'\r\n"
	}
	head := "HTTP/1.1 400 Bad Request\r\nContent-Type: " + ctype + "\r\nContent-Length: " + strconv.Itoa(len(body)) +
		"\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n" + extra + "Connection: close\r\n\r\n"
	return append([]byte(head), body...)
}

// shorten keeps a long target readable on the page.
func shorten(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// badRequestPage is the page a browser gets; it needs nothing else from the server.
var badRequestPage = template.Must(template.New("bad").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bad address · Loupe</title>
<style>
:root { color-scheme: light dark; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { max-width: 40rem; margin: 4rem auto; padding: 0 1.25rem; }
h1 { font-size: 1.4rem; margin: 0 0 .75rem; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.muted { opacity: .75; }
</style></head>
<body><main>
<p class="muted">Loupe · 400 Bad Request</p>
<h1>This address cannot be read</h1>
<p><code>{{.Target}}</code></p>
<p>The server could not read it: {{.Why}}.</p>
<p><strong>What to do:</strong> {{.Check}}.</p>
<p><a href="/">Go to Loupe's home page</a></p>
</main></body></html>
`))
