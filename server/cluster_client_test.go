package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"loupe/server/sandbox/state"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/opensearch-project/opensearch-go/v4"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"loupe/server/config"
	"loupe/server/sandbox"
	"loupe/server/sandbox/cluster"
)

// visitorCookie makes every client of these tests one sandbox visitor, so that what a call
// through the proxy changes, a direct call sees (the sandboxes keep one state per visitor).
var visitorCookie = func() string { _, c := state.NewCookie(false); return c.Name + "=" + c.Value }()

// clusterClient is the official OpenSearch client pointed at base (the
// sandbox or the proxy), sending the API key key (none when empty).
func clusterClient(t *testing.T, base, key string) *opensearchapi.Client {
	t.Helper()
	cfg := opensearch.Config{Addresses: []string{base}, Header: http.Header{"Cookie": {visitorCookie}}}
	if key != "" {
		cfg.Header.Set("Authorization", "ApiKey "+key)
	}
	c, err := opensearchapi.NewClient(opensearchapi.Config{Client: cfg})
	if err != nil {
		t.Fatalf("opensearchapi.NewClient(%s): %v", base, err)
	}
	return c
}

// upgradeReq is the security plugin's upgrade check or perform, which the
// client has no typed call for: it goes through the client's generic Do.
type upgradeReq struct {
	path string
	body string
}

// GetRequest implements opensearch.Request.
func (r upgradeReq) GetRequest(method string) (*http.Request, error) {
	var body io.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
	}
	req, err := http.NewRequest(method, r.path, body)
	if err == nil && r.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, err
}

// upgrade sends a check (GET) or perform (POST) with the client.
func upgrade(c *opensearchapi.Client, method, path, body string) (int, map[string]any, error) {
	var out map[string]any
	resp, err := c.Client.Do(context.Background(), method, upgradeReq{path, body}, nil)
	if resp == nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	if derr := json.NewDecoder(resp.Body).Decode(&out); err == nil && derr != nil {
		err = derr
	}
	return resp.StatusCode, out, err
}

// sandboxCall sends a sandbox-only call to the cluster sandbox as the
// administrator.
func sandboxCall(t *testing.T, base, method, path string) {
	t.Helper()
	req, _ := http.NewRequest(method, base+"/sandbox/cluster"+cluster.SandboxPrefix+path, nil)
	req.Header.Set("Authorization", "ApiKey "+sandbox.DefaultKey)
	req.Header.Set("Cookie", visitorCookie)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: status %d", method, path, resp.StatusCode)
	}
}

// TestOpenSearchClientHealth checks health with every wait through the
// official client against /sandbox/cluster and /proxy/cluster: the answers
// agree, a wait that cannot hold comes back 408 with the body, and a wait
// for green returns once a stopped node is back and its copies recovered.
func TestOpenSearchClientHealth(t *testing.T) {
	base := startTestServer(t)
	ctx := context.Background()
	direct := clusterClient(t, base+"/sandbox/cluster", sandbox.DefaultKey)
	proxied := clusterClient(t, base+"/proxy/cluster", "")
	yes := true
	waits := []opensearchapi.ClusterHealthParams{
		{},
		{WaitForStatus: "green", Timeout: 5 * time.Second},
		{WaitForStatus: "YELLOW", Level: "indices"},
		{WaitForNodes: ">=3"}, {WaitForNodes: "ge(2)"}, {WaitForNodes: "3"},
		{WaitForActiveShards: "all"}, {WaitForActiveShards: "24"},
		{WaitForNoRelocatingShards: &yes, WaitForNoInitializingShards: &yes},
		{WaitForEvents: "languid", ClusterManagerTimeout: time.Second},
	}
	for _, p := range waits {
		for name, c := range map[string]*opensearchapi.Client{"sandbox": direct, "proxy": proxied} {
			resp, err := c.Cluster.Health(ctx, &opensearchapi.ClusterHealthReq{Params: p})
			if err != nil {
				t.Fatalf("%s %+v: %v", name, p, err)
			}
			if resp.Status != "green" || resp.TimedOut || resp.NumberOfNodes != 3 || resp.ActiveShards != 24 {
				t.Errorf("%s %+v: got %+v; want green, 3 nodes, 24 active shards", name, p, resp)
			}
		}
	}
	// Per index, through the proxy.
	resp, err := proxied.Cluster.Health(ctx, &opensearchapi.ClusterHealthReq{Indices: []string{"products", "orders"}, Params: opensearchapi.ClusterHealthParams{WaitForStatus: "green"}})
	if err != nil || resp.ActivePrimaryShards != 4 {
		t.Errorf("products,orders: got %+v, %v; want 4 active primaries", resp, err)
	}

	// A wait that cannot hold: 408, timed_out, the body.
	for name, c := range map[string]*opensearchapi.Client{"sandbox": direct, "proxy": proxied} {
		resp, err := c.Cluster.Health(ctx, &opensearchapi.ClusterHealthReq{Params: opensearchapi.ClusterHealthParams{WaitForNodes: "5", Timeout: 200 * time.Millisecond}})
		if err == nil || resp.Inspect().Response == nil || resp.Inspect().Response.StatusCode != http.StatusRequestTimeout {
			t.Fatalf("%s wait_for_nodes=5: got %+v, %v; want a 408 error", name, resp, err)
		}
		var body struct {
			TimedOut bool   `json:"timed_out"`
			Status   string `json:"status"`
		}
		var se *opensearch.StringError
		if errors.As(err, &se) {
			_ = json.Unmarshal([]byte(se.Err), &body)
		}
		if !body.TimedOut || body.Status != "green" {
			t.Errorf("%s wait_for_nodes=5: the 408's body: got %v; want timed_out and green", name, err)
		}
	}

	// Stop a node: yellow; a wait for green through the proxy returns once
	// it is back and its copies have recovered.
	sandboxCall(t, base, http.MethodPost, "nodes/node-3/_stop")
	t.Cleanup(func() { sandboxCall(t, base, http.MethodPost, "_reset") })
	resp, err = direct.Cluster.Health(ctx, nil)
	if err != nil || resp.Status != "yellow" || resp.DelayedUnassignedShards != 8 {
		t.Fatalf("node-3 stopped: got %+v, %v; want yellow with 8 delayed", resp, err)
	}
	type result struct {
		resp *opensearchapi.ClusterHealthResp
		err  error
		took time.Duration
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		r, err := proxied.Cluster.Health(ctx, &opensearchapi.ClusterHealthReq{Params: opensearchapi.ClusterHealthParams{WaitForStatus: "green", Timeout: 25 * time.Second}})
		done <- result{r, err, time.Since(start)}
	}()
	sandboxCall(t, base, http.MethodPost, "nodes/node-3/_start")
	r := <-done
	if r.err != nil || r.resp.Status != "green" || r.resp.TimedOut || r.resp.NumberOfNodes != 3 {
		t.Fatalf("wait for green after node-3 started: got %+v, %v; want green", r.resp, r.err)
	}
	if r.took < time.Second {
		t.Errorf("wait for green took %v; want the copies' recoveries (seconds)", r.took)
	}
}

// TestOpenSearchClientUpgrade checks the upgrade check and perform through
// the client's generic call: the administrator (the default proxy
// configuration, or the sandbox key) checks and performs; the read-only key
// (sent directly, or by a proxy configured with it) checks, and perform
// answers the plugin's 403.
func TestOpenSearchClientUpgrade(t *testing.T) {
	base := startTestServer(t)
	const check, perform = "/_plugins/_security/api/_upgrade_check", "/_plugins/_security/api/_upgrade_perform"
	proxied := clusterClient(t, base+"/proxy/cluster", "")
	reader := clusterClient(t, base+"/sandbox/cluster", cluster.DefaultReaderKey)
	if code, body, err := upgrade(reader, http.MethodGet, check, ""); err != nil || code != 200 || body["upgradeAvailable"] != true {
		t.Errorf("reader check: got %d %v %v; want 200 with an upgrade available", code, body, err)
	}
	if code, body, _ := upgrade(reader, http.MethodPost, perform, `{"config":["roles"]}`); code != 403 || body["status"] != "FORBIDDEN" {
		t.Errorf("reader perform: got %d %v; want 403 FORBIDDEN", code, body)
	}
	code, body, err := upgrade(proxied, http.MethodPost, perform, `{"config":["roles"]}`)
	if err != nil || code != 200 || body["upgrades"].(map[string]any)["roles"] == nil {
		t.Errorf("proxied perform: got %d %v %v; want roles upgraded", code, body, err)
	}
	code, body, err = upgrade(proxied, http.MethodGet, check, "")
	if err != nil || code != 200 || body["upgradeActions"].(map[string]any)["rolesmapping"].([]any)[0] != "update_required" {
		t.Errorf("proxied check after roles: got %d %v %v; want rolesmapping update_required", code, body, err)
	}

	// A proxy configured with the read-only key is read-only.
	settings, err := config.Parse([]byte("apis:\n  cluster:\n    credential: {value: "+cluster.DefaultReaderKey+"}\n"), "reader.yaml", func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ts.Close(); srv.Close() })
	ro := clusterClient(t, ts.URL+"/proxy/cluster", "")
	if code, _, err := upgrade(ro, http.MethodGet, check, ""); err != nil || code != 200 {
		t.Errorf("read-only proxy check: got %d %v; want 200", code, err)
	}
	if code, _, _ := upgrade(ro, http.MethodPost, perform, ""); code != 403 {
		t.Errorf("read-only proxy perform: got %d; want 403", code)
	}
	if resp, err := ro.Cluster.Health(context.Background(), nil); err != nil || resp.Status != "green" {
		t.Errorf("read-only proxy health: got %+v, %v; want green", resp, err)
	}
}
