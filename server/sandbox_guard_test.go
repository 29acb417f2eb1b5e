package server

import (
	"net/http"
	"strings"
	"testing"

	"loupe/server/sandbox"
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
