package proxy

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"testing/iotest"
)

var allSecrets = []string{entitiesKey, chatKey, scriptKey, url.QueryEscape(entitiesKey)}

// scan fails the test if any secret appears in s.
func scan(t *testing.T, where, s string) {
	t.Helper()
	for _, secret := range allSecrets {
		if strings.Contains(s, secret) {
			t.Errorf("%s: found the secret %q in %q", where, secret, s)
		}
	}
}

func dump(resp *http.Response, body string) string {
	var b bytes.Buffer
	resp.Header.Write(&b)
	return b.String() + "\n" + body
}

// TestSecretsNeverReachTheBrowser makes calls of every kind against an upstream that echoes
// the request (with its credential) in its headers, its body, its redirects and its event
// stream: no answer and no audit line may hold a secret.
func TestSecretsNeverReachTheBrowser(t *testing.T) {
	h := newHarness(t, nil)
	h.backend.setHandler(func(w http.ResponseWriter, r *http.Request) {
		echo := r.Header.Get("Authorization") + " " + r.URL.String()
		switch {
		case strings.HasSuffix(r.URL.Path, "/stream"):
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("X-Echo", echo)
			rc := http.NewResponseController(w)
			// The secret split across two writes, then whole.
			for _, part := range []string{"data: " + echo[:10], echo[10:] + "\n\n", "data: " + echo + "\n\n", "data: [DONE]\n\n"} {
				io.WriteString(w, part)
				rc.Flush()
			}
		case strings.HasSuffix(r.URL.Path, "/redirect"):
			http.Redirect(w, r, "/chat/v1/echo/x?"+r.URL.RawQuery+"&token="+chatKey, http.StatusFound)
		case strings.Contains(r.URL.Path, "/echo/"):
			w.Header().Set("Location", "https://elsewhere.example/?key="+entitiesKey)
			w.Header().Set("Www-Authenticate", `Bearer error="invalid_token", token="`+chatKey+`"`)
			w.WriteHeader(http.StatusCreated)
			fmt.Fprintf(w, `{"echo":%q,"next":"%s?key=%s"}`, echo, r.URL.Path, url.QueryEscape(entitiesKey))
		default:
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Set-Cookie", "k="+scriptKey)
			fmt.Fprintf(w, `{"error":{"message":"bad request %s","auth":%q}}`, r.URL.String(), r.Header.Get("Authorization"))
		}
	})
	calls := []struct{ method, path string }{
		{"GET", "/proxy/entities/v1/entities:search?query=paris"},
		{"GET", "/proxy/entities/v1/entities:search?query=" + url.QueryEscape(entitiesKey)},
		{"GET", "/proxy/chat/v1/stream"},
		{"GET", "/proxy/chat/v1/redirect?key=" + chatKey},
		{"GET", "/proxy/chat/v1/echo/" + chatKey},
		{"POST", "/proxy/chat/v1/chat/completions"},
		{"POST", "/proxy/script/v1/scripts/s1:run"},
		{"GET", "/proxy/script/v1/projects/p1"},
		{"GET", "/proxy/chat/v1/../echo"},
		{"DELETE", "/proxy/chat/v1/chat/completions"},
		{"GET", "/proxy/entities/v1/entities:search?query=a%0d%0a"},
	}
	for _, c := range calls {
		resp, body := h.do(t, c.method, c.path, strings.NewReader("{}"), nil)
		scan(t, c.method+" "+c.path, dump(resp, body))
	}
	// A sample of the tricks, and errors with the credential in the upstream URL.
	for _, tr := range loadTricks(t)[:20] {
		sendRaw(t, strings.TrimPrefix(h.URL, "http://"), tr)
	}
	down := newHarnessWith(t, func(c *Config, b *backend) {
		c.APIs = testAPIs("http://nonexistent.invalid")
		c.Audit = h.proxy.cfg.Audit
	})
	resp, body := down.do(t, "GET", "/proxy/entities/v1/entities:search?query=x", nil, nil)
	scan(t, "upstream down", dump(resp, body))
	if resp.StatusCode != 502 {
		t.Errorf("upstream down: got %d; want 502", resp.StatusCode)
	}
	log := h.auditLog()
	scan(t, "audit log", log)
	if n := strings.Count(log, "proxy call"); n < len(calls)+20 {
		t.Errorf("audit: got %d lines; want one per call (%d)", n, len(calls)+20)
	}
	for _, field := range []string{"user=local", "api=entities", "operation=search", "status=200", "duration=", "bytes="} {
		if !strings.Contains(log, field) {
			t.Errorf("audit: got %s; want %s", log, field)
		}
	}
}

func TestMaskerAcrossReads(t *testing.T) {
	m := newMasker([]string{"SECRET-123", "other-secret"})
	tests := []string{
		"SECRET-123",
		"xxSECRET-123yySECRET-123",
		"SECRET-12",
		"SECRET-12SECRET-123",
		"data: other-secret\n\n",
		"SSSSECRET-123",
	}
	for _, in := range tests {
		for _, size := range []int{1, 2, 3, 7, 100} {
			body := io.NopCloser(iotest.OneByteReader(strings.NewReader(in)))
			if size > 1 {
				body = io.NopCloser(&chunkReader{s: in, n: size})
			}
			got, err := io.ReadAll(m.wrap(body))
			if err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(strings.ReplaceAll(in, "SECRET-123", "**********"), "other-secret", "************")
			if string(got) != want {
				t.Errorf("%q in reads of %d: got %q; want %q", in, size, got, want)
			}
		}
	}
}

// TestMaskerCallerBuffers reads masked bodies with buffers of every kind of size: the masker
// masks in the caller's buffer when it can hold the held-back bytes and a read (twice the
// longest secret, 24 bytes here), and in a small one of its own otherwise.
func TestMaskerCallerBuffers(t *testing.T) {
	m := newMasker([]string{"SECRET-123", "other-secret"})
	inputs := []string{
		"SECRET-123",
		"data: {\"k\":\"SECRET-123\"}\n\ndata: other-secretSECRET-12\n\n",
		strings.Repeat("x", 40) + "SECRET-123" + strings.Repeat("y", 40) + "other-secre",
		"SSSSECRET-123SECRET-1SECRET-123",
	}
	for _, in := range inputs {
		want := strings.ReplaceAll(strings.ReplaceAll(in, "SECRET-123", "**********"), "other-secret", "************")
		for _, chunk := range []int{1, 4, 11, 1000} {
			for _, size := range []int{1, 3, 23, 24, 25, 64, 8192} {
				body := m.wrap(io.NopCloser(&chunkReader{s: in, n: chunk}))
				var got []byte
				buf := make([]byte, size)
				for {
					n, err := body.Read(buf)
					got = append(got, buf[:n]...)
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
				}
				if string(got) != want {
					t.Errorf("%q in upstream reads of %d, caller reads of %d: got %q; want %q", in, chunk, size, got, want)
				}
			}
		}
	}
}

type chunkReader struct {
	s string
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	k := min(c.n, len(c.s), len(p))
	copy(p, c.s[:k])
	c.s = c.s[k:]
	return k, nil
}

func TestOperationMatch(t *testing.T) {
	ops := newOperations(testCatalog.API("script"))
	docs := newOperations(testCatalog.API("docs"))
	tests := []struct {
		ops          *operations
		method, path string
		want         string
	}{
		{ops, "GET", "/v1/projects/abc", "projectsGet"},
		{ops, "GET", "/v1/projects/abc/", "projectsGet"},
		{ops, "PUT", "/v1/projects/abc/content", "projectsUpdateContent"},
		{ops, "POST", "/v1/scripts/abc:run", "scriptsRun"},
		{ops, "POST", "/v1/scripts/:run", ""},
		{ops, "GET", "/v1/projects/abc/def", ""},
		{ops, "GET", "/v1/projects", ""},
		{docs, "GET", "/project/", "projectsList"},
		{docs, "GET", "/api/v2/project/", "projectsList"},
		{docs, "GET", "/project/5/active_versions/", "projectsActiveVersions"},
		{docs, "GET", "/project/active_versions/", "projectsRead"},
	}
	for _, tt := range tests {
		m, _ := tt.ops.match(tt.method, "", tt.path, "", nil)
		if got := m.id; got != tt.want {
			t.Errorf("%s %s: got %q; want %q", tt.method, tt.path, m.id, tt.want)
		}
	}
}
