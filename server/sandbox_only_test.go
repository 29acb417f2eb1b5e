package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"loupe/server/config"
)

// TestSandboxOnlyOperations checks that the proxy sends the operations marked
// x-loupe-sandbox-only to the built-in sandbox, and refuses them, with what to
// do, when the API points at a real cluster (which never sees them).
func TestSandboxOnlyOperations(t *testing.T) {
	var upstreamPaths []string
	real := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		upstreamPaths = append(upstreamPaths, r.URL.Path)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"cluster_name":"real","status":"green","timed_out":false}`)
	}))
	defer real.Close()
	settings, err := config.Parse([]byte("apis:\n  cluster:\n    base_url: "+real.URL+"\n    credential: {value: real-key}\n"), "real.yaml", func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	realTS := httptest.NewServer(srv)
	defer realTS.Close()
	toReal := realTS.URL
	toSandbox := startTestServer(t)

	tests := []struct {
		base, method, path string
		status             int
		want               string
	}{
		{toSandbox, http.MethodGet, "/_sandbox/state", 200, `"nodes":[`},
		{toSandbox, http.MethodPost, "/_sandbox/nodes/node-3/_stop", 200, `{"acknowledged":true}`},
		{toSandbox, http.MethodPost, "/_sandbox/_reset", 200, `{"acknowledged":true}`},
		{toSandbox, http.MethodGet, "/_sandbox/nothing", 403, "is not a documented operation"},
		{toReal, http.MethodGet, "/_sandbox/state", 403, "operation sandbox.state exists only in Loupe's built-in sandbox"},
		{toReal, http.MethodPost, "/_sandbox/nodes/node-3/_stop", 403, "leave apis.cluster.base_url empty to use the sandbox"},
		{toReal, http.MethodGet, "/_cluster/health", 200, `"cluster_name":"real"`},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, tt.base+"/proxy/cluster"+tt.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status || !strings.Contains(string(body), tt.want) {
			t.Errorf("%s %s (%s): got %d %s; want %d containing %s", tt.method, tt.path, map[bool]string{true: "sandbox", false: "real"}[tt.base == toSandbox], resp.StatusCode, body, tt.status, tt.want)
		}
	}
	if len(upstreamPaths) != 1 || upstreamPaths[0] != "/_cluster/health" {
		t.Errorf("the real upstream saw %v; want only /_cluster/health", upstreamPaths)
	}
}
