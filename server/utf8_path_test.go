package server

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"

	"loupe/server/config/placement"
	"loupe/server/sandbox"
)

// TestUTF8PathValuesReachTheSandboxes: a path value percent-encoded as UTF-8 (an index named
// café or 東京) is the API's to judge, through the proxy and straight to /sandbox/: the index
// is created, its health read by that name, and an unknown script id gets Google's 404, never
// a refusal of Loupe's.
func TestUTF8PathValuesReachTheSandboxes(t *testing.T) {
	srv, ts, _ := serve(t, "", nil)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Transport: ts.Client().Transport}
	tests := []struct {
		method, api, path string
		wantStatus        int
		wantBody          string
	}{
		{"PUT", "cluster", "/_sandbox/indices/caf%C3%A9", 200, `"acknowledged":true`},
		{"GET", "cluster", "/_cluster/health/caf%C3%A9", 200, `"timed_out":false`},
		{"PUT", "cluster", "/_sandbox/indices/%E6%9D%B1%E4%BA%AC", 200, `"acknowledged":true`},
		{"GET", "cluster", "/_cluster/health/%E6%9D%B1%E4%BA%AC", 200, `"timed_out":false`},
		{"GET", "script", "/v1/projects/%E6%9D%B1%E4%BA%AC", 404, `"status":"NOT_FOUND"`},
	}
	for _, prefix := range []string{"/proxy/", "/sandbox/"} {
		for _, tt := range tests {
			req, _ := http.NewRequest(tt.method, ts.URL+prefix+tt.api+tt.path, nil)
			if prefix == "/sandbox/" { // the credential the proxy would add, placed as the document says
				send, name, pfx, err := placement.Of(srv.Catalog().API(tt.api))
				if err != nil {
					t.Fatal(err)
				}
				placement.Apply(send, name, pfx, sandbox.DefaultKey)(req)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if got := string(b); resp.StatusCode != tt.wantStatus || !strings.Contains(got, tt.wantBody) || strings.Contains(got, "loupe proxy") {
				t.Errorf("%s %s%s%s: got %d %.200s; want %d with %s", tt.method, prefix, tt.api, tt.path, resp.StatusCode, got, tt.wantStatus, tt.wantBody)
			}
		}
	}
}
