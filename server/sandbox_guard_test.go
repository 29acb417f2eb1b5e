package server

import (
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"loupe/server/sandbox"
	"loupe/server/sandbox/state"
)

// TestSandboxRefusesCrossSiteChanges: another site cannot change sandbox state with the user's
// cookie; the page itself and clients without Origin (official client libraries) can.
func TestSandboxRefusesCrossSiteChanges(t *testing.T) {
	_, ts, _ := serve(t, "", nil)
	host := strings.TrimPrefix(ts.URL, "http://")
	tests := []struct {
		name   string
		header http.Header
		want   int // 0: anything but 403
	}{
		{"another site", http.Header{"Origin": {"https://evil.example"}, "Sec-Fetch-Site": {"cross-site"}}, 403},
		{"another site, Origin only", http.Header{"Origin": {"https://evil.example"}}, 403},
		{"the page itself", http.Header{"Origin": {"http://" + host}, "Sec-Fetch-Site": {"same-origin"}}, 0},
		{"a client library", nil, 0},
	}
	for _, tt := range tests {
		h := http.Header{"Authorization": {"Bearer " + sandbox.DefaultKey}, "Content-Type": {"application/json"}}
		for k, v := range tt.header {
			h[k] = v
		}
		req, _ := http.NewRequest("POST", ts.URL+"/sandbox/script/v1/projects", strings.NewReader(`{"title":"x"}`))
		req.Header = h
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if tt.want == 403 && resp.StatusCode != 403 || tt.want == 0 && resp.StatusCode == 403 {
			t.Errorf("%s: got %d; want %v (0: not 403)", tt.name, resp.StatusCode, tt.want)
		}
	}
}

// TestPagingLinksIgnoreTheClientsHost: the sandboxes' next links name the server's own address
// (or the configured public URL), never a Host or X-Forwarded-Host the client made up.
func TestPagingLinksIgnoreTheClientsHost(t *testing.T) {
	_, ts, _ := serve(t, "", nil)
	own := strings.TrimPrefix(ts.URL, "http://")
	for _, path := range []string{"/sandbox/docs/api/v2/project/?limit=1", "/proxy/docs/api/v2/project/?limit=1"} {
		for _, hdr := range []http.Header{{"X-Forwarded-Host": {"evil.example"}, "X-Forwarded-Proto": {"javascript"}}, nil} {
			req, _ := http.NewRequest("GET", ts.URL+path, nil)
			req.Host = "evil.example"
			for k, v := range hdr {
				req.Header[k] = v
			}
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			buf := make([]byte, 4096)
			for {
				n, err := resp.Body.Read(buf)
				b.Write(buf[:n])
				if err != nil {
					break
				}
			}
			resp.Body.Close()
			body := b.String()
			if strings.Contains(body, "evil.example") || strings.Contains(body, "javascript") {
				t.Errorf("%s (%v): the links reflect the client's host: %.300s", path, hdr, body)
			}
			if !strings.Contains(body, `"next":"http://`+own+`/`) {
				t.Errorf("%s (%v): got %.300s; want a next link on %s", path, hdr, body, own)
			}
		}
	}
}

// TestOAuthMetadataIgnoresTheClientsHost: the script sandbox's authorization server metadata
// names the server's own address, or server.public_url, never the Host the client sent.
func TestOAuthMetadataIgnoresTheClientsHost(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"", ""}, // the server's own address
		{"server:\n  public_url: https://loupe.example.com\n", "https://loupe.example.com/sandbox/script"},
	} {
		_, ts, _ := serve(t, tc.yaml, nil)
		want := tc.want
		if want == "" {
			want = ts.URL + "/sandbox/script"
		}
		req, _ := http.NewRequest("GET", ts.URL+"/sandbox/script/.well-known/oauth-authorization-server", nil)
		req.Host = "evil.example"
		req.Header.Set("X-Forwarded-Host", "evil.example")
		resp, body := send(t, ts.Client(), req)
		if resp.StatusCode != 200 || strings.Contains(body, "evil.example") || !strings.Contains(body, `"issuer":"`+want+`"`) ||
			!strings.Contains(body, `"token_endpoint":"`+want+`/oauth/token"`) {
			t.Errorf("public_url %q: got %d %.400s; want the issuer %s and its endpoints", tc.yaml, resp.StatusCode, body, want)
		}
	}
}

// send sends req with c and returns the response and its body.
func send(t *testing.T, c *http.Client, req *http.Request) (*http.Response, string) {
	t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// TestGuardedRequest: the request a sandbox gets has the trusted host and forwarding headers,
// none of the guarded headers the client sent, every other header as sent, and the client's
// request is left as it was.
func TestGuardedRequest(t *testing.T) {
	r, _ := http.NewRequest("POST", "http://evil.example/sandbox/chat/v1/x?key=k", strings.NewReader("{}"))
	r.Header = http.Header{
		"X-Forwarded-Host": {"evil.example"}, "X-Forwarded-Proto": {"javascript"}, "X-Forwarded-Prefix": {"/x"},
		"Forwarded": {"host=evil.example"}, state.Header: {"someone-else"}, state.ClientHeader: {"10.0.0.9"},
		"Authorization": {"Bearer k"}, "Accept": {"a", "b"},
	}
	before := r.Header.Clone()
	got := guarded(r, "https", "loupe.example")
	want := http.Header{"X-Forwarded-Host": {"loupe.example"}, "X-Forwarded-Proto": {"https"},
		"Authorization": {"Bearer k"}, "Accept": {"a", "b"}}
	if !reflect.DeepEqual(got.Header, want) {
		t.Errorf("got headers %v; want %v", got.Header, want)
	}
	if got.Host != "loupe.example" || got.URL.String() != r.URL.String() || got.Method != "POST" || got.Body != r.Body {
		t.Errorf("got host %q, %s %s; want loupe.example and the request's own", got.Host, got.Method, got.URL)
	}
	if !reflect.DeepEqual(r.Header, before) || r.Host != "evil.example" {
		t.Errorf("the client's request changed: %v, host %q", r.Header, r.Host)
	}
}
