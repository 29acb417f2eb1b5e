package proxy

import (
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// hostileKey has every character an encoder rewrites: / + = % and quotes.
const hostileKey = `sk/Ab+Cd=Ef%2F"G'h<i>&j`

// hostileAPIs are the test APIs with chat's credential replaced by hostileKey.
func hostileAPIs(base string) map[string]*API {
	apis := testAPIs(base)
	apis["chat"].Secrets = []string{hostileKey}
	apis["chat"].Apply = func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+hostileKey) }
	return apis
}

// encodings are the forms an upstream writes a secret in: JSON escapes, percent-encoding in
// either case, path escaping, base64.
func encodings(s string) map[string]string {
	lowerHex := func(e string) string {
		var b strings.Builder
		for i := 0; i < len(e); i++ {
			if e[i] == '%' && i+2 < len(e) {
				b.WriteString("%" + strings.ToLower(e[i+1:i+3]))
				i += 2
				continue
			}
			b.WriteByte(e[i])
		}
		return b.String()
	}
	jsonSlash := strings.NewReplacer(`"`, `\"`, `/`, `\/`).Replace(s)
	jsonHTML := strings.NewReplacer(`"`, `\"`, `<`, `\u003c`, `>`, `\u003e`, `&`, `\u0026`).Replace(s)
	return map[string]string{
		"raw":             s,
		"json \\/":        jsonSlash,
		"json html-safe":  jsonHTML,
		"query upper":     url.QueryEscape(s),
		"query lower":     lowerHex(url.QueryEscape(s)),
		"path upper":      url.PathEscape(s),
		"path lower":      lowerHex(url.PathEscape(s)),
		"base64":          base64.StdEncoding.EncodeToString([]byte(s)),
		"base64 url":      base64.URLEncoding.EncodeToString([]byte(s)),
		"base64 url, raw": base64.RawURLEncoding.EncodeToString([]byte(s)),
	}
}

// TestEncodedSecretsAreMasked: an upstream that re-encodes the credential (JSON escaping,
// percent-encoding in either case, path escaping, base64) in headers, a body and an event
// stream split into one-byte writes: no form reaches the client.
func TestEncodedSecretsAreMasked(t *testing.T) {
	enc := encodings(hostileKey)
	h := newHarnessWith(t, func(c *Config, b *backend) { c.APIs = hostileAPIs(b.URL) })
	h.backend.setHandler(func(w http.ResponseWriter, r *http.Request) {
		i := 0
		for name, e := range enc {
			w.Header().Set(fmt.Sprintf("X-Echo-%d", i), name+": "+e)
			i++
		}
		if strings.HasSuffix(r.URL.Path, "/stream") {
			w.Header().Set("Content-Type", "text/event-stream")
			rc := http.NewResponseController(w)
			for name, e := range enc {
				ev := "data: {\"" + name + "\":\"" + e + "\"}\n\n"
				for j := 0; j < len(ev); j++ {
					io.WriteString(w, ev[j:j+1])
					rc.Flush()
				}
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		for name, e := range enc {
			fmt.Fprintf(w, "%s=%s\n", name, e)
		}
	})
	for _, path := range []string{"/proxy/chat/v1/echo/x", "/proxy/chat/v1/stream"} {
		resp, body := h.do(t, "GET", path, nil, nil)
		all := dump(resp, body)
		for name, e := range enc {
			if strings.Contains(all, e) {
				t.Errorf("%s: the %s form %q passed:\n%s", path, name, e, all)
			}
		}
		if !strings.Contains(body, "query upper") {
			t.Errorf("%s: got %q; want the answer itself", path, body)
		}
	}
}

// TestTrailersAreMasked: a credential (or a cookie) sent in HTTP trailers is masked or dropped
// like in headers.
func TestTrailersAreMasked(t *testing.T) {
	h := newHarness(t, nil)
	h.backend.setHandler(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Trailer", "X-Echo, Set-Cookie")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
		w.Header().Set("X-Echo", r.Header.Get("Authorization"))
		w.Header().Set("Set-Cookie", "k=v")
		w.Header().Set(http.TrailerPrefix+"X-Undeclared", "token="+chatKey)
	})
	resp, body := h.do(t, "GET", "/proxy/chat/v1/echo/x", nil, nil)
	if body != `{"ok":true}` {
		t.Fatalf("got %q", body)
	}
	var tr strings.Builder
	resp.Trailer.Write(&tr)
	scan(t, "trailers", tr.String())
	if resp.Trailer.Get("Set-Cookie") != "" {
		t.Errorf("trailers: got Set-Cookie %q; want it dropped", resp.Trailer.Get("Set-Cookie"))
	}
	if got := resp.Trailer.Get("X-Echo"); got != "Bearer "+strings.Repeat("*", len(chatKey)) {
		t.Errorf("trailer X-Echo: got %q; want the credential masked", got)
	}

	// Trailers the upstream did not announce at all.
	h.backend.setHandler(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
		w.Header().Set(http.TrailerPrefix+"X-Echo", r.Header.Get("Authorization"))
		w.Header().Set(http.TrailerPrefix+"Set-Cookie", "k=v")
	})
	resp, _ = h.do(t, "GET", "/proxy/chat/v1/echo/x", nil, nil)
	tr.Reset()
	resp.Trailer.Write(&tr)
	scan(t, "unannounced trailers", tr.String())
	if resp.Trailer.Get("Set-Cookie") != "" {
		t.Errorf("unannounced trailers: got Set-Cookie; want it dropped")
	}
}

// TestNavigationsAndMediaLoadsAreRefused: a proxy URL opened as a page, in a frame, or loaded
// as an image, script or media is refused; fetch() from the page and calls without fetch
// metadata (official clients) work.
func TestNavigationsAndMediaLoadsAreRefused(t *testing.T) {
	h := newHarness(t, nil)
	meta := func(site, mode, dest string) http.Header {
		return http.Header{"Sec-Fetch-Site": {site}, "Sec-Fetch-Mode": {mode}, "Sec-Fetch-Dest": {dest}}
	}
	tests := []struct {
		name   string
		header http.Header
		want   int
	}{
		{"official client", nil, 200},
		{"fetch() from the page", meta("same-origin", "cors", "empty"), 200},
		{"fetch() same-origin mode", meta("same-origin", "same-origin", "empty"), 200},
		{"link clicked", meta("same-origin", "navigate", "document"), 403},
		{"typed in the address bar", meta("none", "navigate", "document"), 403},
		{"in an iframe", meta("same-origin", "navigate", "iframe"), 403},
		{"image", meta("same-origin", "no-cors", "image"), 403},
		{"script", meta("same-origin", "no-cors", "script"), 403},
		{"video", meta("same-origin", "no-cors", "video"), 403},
		{"style", meta("same-origin", "no-cors", "style"), 403},
		{"no-cors fetch", meta("same-origin", "no-cors", "empty"), 403},
		{"only Sec-Fetch-Dest", http.Header{"Sec-Fetch-Dest": {"image"}}, 403},
		{"only Sec-Fetch-Mode", http.Header{"Sec-Fetch-Mode": {"navigate"}}, 403},
	}
	for _, tt := range tests {
		resp, body := h.do(t, "GET", "/proxy/chat/v1/echo/x", nil, tt.header)
		if resp.StatusCode != tt.want {
			t.Errorf("%s: got %d %.120s; want %d", tt.name, resp.StatusCode, body, tt.want)
		}
		if tt.want == 403 && !strings.Contains(body, "fetch") {
			t.Errorf("%s: got %s; want a JSON error that says to call it with fetch", tt.name, body)
		}
	}
}

// TestResetBeforeHeaders: an upstream that resets the connection before any header gets the
// client a 502 JSON naming the API, and the audit line says 502.
func TestResetBeforeHeaders(t *testing.T) {
	h := newHarness(t, nil)
	h.backend.setHandler(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		conn.(*net.TCPConn).SetLinger(0)
		conn.Close()
	})
	resp, body := h.do(t, "GET", "/proxy/chat/v1/echo/x", nil, nil)
	if resp.StatusCode != 502 || !strings.Contains(body, `"api":"chat"`) || !strings.Contains(body, "reset") {
		t.Errorf("got %d %s; want a 502 JSON naming chat and the reset", resp.StatusCode, body)
	}
	if line := lastAudit(h); !strings.Contains(line, "status=502") {
		t.Errorf("audit: got %q; want status=502", line)
	}
}

// TestAbandonedUploadIsAClientAbort: a client that stops sending its body half-way and hangs up
// is audited as a client abort, not as the upstream's failure.
func TestAbandonedUploadIsAClientAbort(t *testing.T) {
	h := newHarness(t, nil)
	h.backend.setHandler(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
	})
	conn, err := net.Dial("tcp", h.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST /proxy/chat/v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{\"messages\":")
	time.Sleep(100 * time.Millisecond) // the proxy is reading the body upstream
	conn.Close()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(h.auditLog(), "proxy call") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	line := lastAudit(h)
	if !strings.Contains(line, "status=499") || !strings.Contains(line, `outcome="client abort"`) {
		t.Errorf("audit: got %q; want status=499 outcome=\"client abort\"", line)
	}
}

func lastAudit(h *harness) string {
	var line string
	for _, l := range strings.Split(h.auditLog(), "\n") {
		if strings.Contains(l, `msg="proxy call"`) {
			line = l
		}
	}
	return line
}
