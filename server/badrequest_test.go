package server

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestClearBadRequests: a request Go's server refuses before any handler (a malformed
// percent-escape in its target) gets Loupe's own answer, JSON under /proxy/ and /sandbox/,
// a page elsewhere, also after a good request on the same connection; good requests pass.
func TestClearBadRequests(t *testing.T) {
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		io.WriteString(w, "handled "+r.URL.EscapedPath()+" "+string(body))
	}))
	ts.Listener = ClearBadRequests(ts.Listener)
	ts.Start()
	defer ts.Close()
	addr := ts.Listener.Addr().String()

	// send writes raw requests on one connection and reads as many answers.
	send := func(t *testing.T, raw string, answers int) []*http.Response {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := io.WriteString(c, raw); err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(c)
		var out []*http.Response
		for range answers {
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatalf("reading an answer to %q: %v", raw, err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body = io.NopCloser(strings.NewReader(string(b)))
			out = append(out, res)
		}
		return out
	}
	text := func(r *http.Response) string { b, _ := io.ReadAll(r.Body); return string(b) }

	for _, tc := range []struct {
		name, raw         string
		answers           int
		status            int
		ctype, loupeError string
		want              []string
	}{
		{"a page path", "GET /%ZZ HTTP/1.1\r\nHost: x\r\n\r\n", 1, 400, "text/html; charset=utf-8", "",
			[]string{"<title>Bad address · Loupe</title>", "<code>/%ZZ</code>", `malformed percent-escape, &#34;%ZZ&#34;`, "write a literal % as %25"}},
		{"a proxy path", "GET /proxy/entities/v1/%ZZ HTTP/1.1\r\nHost: x\r\n\r\n", 1, 400, "application/json", "proxy",
			[]string{`"error":"the address has a malformed percent-escape, \"%ZZ\": a % must be followed by two hexadecimal digits"`, `"api":"entities"`, `"source":"loupe proxy"`, `"check":"write a literal % as %25`}},
		{"a sandbox path", "GET /sandbox/chat/v1/%4 HTTP/1.1\r\nHost: x\r\n\r\n", 1, 400, "application/json", "",
			[]string{`\"%4\"`, `"source":"loupe"`}},
		{"a markup target is escaped", "GET /<script>%ZZ HTTP/1.1\r\nHost: x\r\n\r\n", 1, 400, "text/html; charset=utf-8", "",
			[]string{"&lt;script&gt;%ZZ"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := send(t, tc.raw, tc.answers)[tc.answers-1]
			body := text(res)
			if res.StatusCode != tc.status || res.Header.Get("Content-Type") != tc.ctype || res.Header.Get("X-Loupe-Error") != tc.loupeError {
				t.Errorf("got %d %q X-Loupe-Error %q; want %d %q %q", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("X-Loupe-Error"), tc.status, tc.ctype, tc.loupeError)
			}
			if strings.Contains(tc.ctype, "json") && !json.Valid([]byte(body)) {
				t.Errorf("body is not JSON: %s", body)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("body lacks %s:\n%s", w, body)
				}
			}
		})
	}
	t.Run("after a good request with a body on the same connection", func(t *testing.T) {
		got := send(t, "POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"+"GET /proxy/docs/%zz HTTP/1.1\r\nHost: x\r\n\r\n", 2)
		if b := text(got[0]); got[0].StatusCode != 200 || b != "handled /ok hello" {
			t.Errorf("first: got %d %q", got[0].StatusCode, b)
		}
		if b := text(got[1]); got[1].StatusCode != 400 || !strings.Contains(b, `\"%zz\"`) || !strings.Contains(b, `"api":"docs"`) {
			t.Errorf("second: got %d %q", got[1].StatusCode, b)
		}
	})
	t.Run("good requests pass as they are", func(t *testing.T) {
		res, err := http.Get(ts.URL + "/a%20b?q=%ZZ")
		if err != nil {
			t.Fatal(err)
		}
		if b := text(res); res.StatusCode != 200 || b != "handled /a%20b " {
			t.Errorf("got %d %q", res.StatusCode, b)
		}
	})
}

// TestRefusedTarget finds the refused request's target among what a connection read.
func TestRefusedTarget(t *testing.T) {
	for _, tc := range []struct{ read, want string }{
		{"GET /%ZZ HTTP/1.1\r\nHost: x\r\n\r\n", "/%ZZ"},
		{"GET /ok HTTP/1.1\r\n\r\nGET /b%G1 HTTP/1.1\r\n\r\n", "/b%G1"},
		{"GET /ok HTTP/1.1\r\nHost: x\r\n\r\n", ""},
		{"garbage", ""},
	} {
		if got := refusedTarget([]byte(tc.read)); got != tc.want {
			t.Errorf("refusedTarget(%q): got %q; want %q", tc.read, got, tc.want)
		}
	}
}
