package cluster

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"loupe/server/sandbox/internal/spectest"
)

// response is a documented response, or a $ref to a shared one.
type response struct {
	Ref     string `yaml:"$ref"`
	Content map[string]struct {
		Example any `yaml:"example"`
	} `yaml:"content"`
}

// spec is the part of the OpenAPI document the example test reads.
type spec struct {
	Paths map[string]map[string]struct {
		OperationID string `yaml:"operationId"`
		RequestBody struct {
			Content map[string]struct {
				Example any `yaml:"example"`
			} `yaml:"content"`
		} `yaml:"requestBody"`
		Responses map[string]response `yaml:"responses"`
	} `yaml:"paths"`
	Components struct {
		Responses map[string]response `yaml:"responses"`
	} `yaml:"components"`
}

// loadSpec parses content/openapi/cluster.yaml from the embedded content.
func loadSpec(t *testing.T) spec {
	t.Helper()
	var s spec
	spectest.Load(t, "cluster", &s)
	return s
}

// resolve follows a response's $ref into components/responses.
func (s spec) resolve(t *testing.T, r response) response {
	t.Helper()
	if r.Ref == "" {
		return r
	}
	name, ok := strings.CutPrefix(r.Ref, "#/components/responses/")
	c, found := s.Components.Responses[name]
	if !ok || !found {
		t.Fatalf("unresolvable response $ref %q", r.Ref)
	}
	return c
}

// exampleCase is the request that reproduces one documented response.
type exampleCase struct {
	path, method, status string
	opts                 Options
	target, auth         string
	body                 string // "request-example": the documented request body
	setup                string // a sandbox-only call to POST first, such as "nodes/node-2/_stop"
}

// exampleCases lists, per documented response, the request answering it.
// The whole-cluster example is the default three-node cluster; the per-index
// and timeout examples come from a one-node cluster (Nodes: 1). The shared
// 408 example (an unknown index) can only come from the per-index path, so
// it is checked there for both operations.
func exampleCases() []exampleCase {
	reader := Options{ReaderKey: "reader-key", GuestKey: "guest-key"}
	one := Options{Nodes: 1}
	small := Options{Nodes: 2, Indices: []Index{{Name: "products", Shards: 1, Replicas: 1}}}
	return []exampleCase{
		{"/_cluster/health", "get", "200", Options{}, "/_cluster/health", apiKey, "", ""},
		{"/_cluster/health", "get", "408", one, "/_cluster/health/missing?wait_for_status=yellow", apiKey, "", ""},
		{"/_cluster/health", "get", "400", Options{}, "/_cluster/health?wait_for_status=purple", apiKey, "", ""},
		{"/_cluster/health", "get", "401", Options{}, "/_cluster/health", "", "", ""},
		{"/_cluster/health", "get", "403", reader, "/_cluster/health", basic("guest", "guest-key"), "", ""},
		{"/_cluster/health/{index}", "get", "200", one, "/_cluster/health/logs-2026.11,products?level=indices", apiKey, "", ""},
		{"/_cluster/health/{index}", "get", "408", one, "/_cluster/health/missing", apiKey, "", ""},
		{"/_cluster/health/{index}", "get", "400", Options{}, "/_cluster/health/products?wait_for_status=PURPLE", apiKey, "", ""},
		{"/_cluster/health/{index}", "get", "401", Options{}, "/_cluster/health/products", "ApiKey wrong", "", ""},
		{"/_cluster/health/{index}", "get", "403", reader, "/_cluster/health/products", "ApiKey guest-key", "", ""},
		{UpgradeCheckPath, "get", "200", Options{}, UpgradeCheckPath, apiKey, "", ""},
		{UpgradeCheckPath, "get", "400", Options{}, UpgradeCheckPath + "?configs=nodes", apiKey, "", ""},
		{UpgradeCheckPath, "get", "401", Options{}, UpgradeCheckPath, "", "", ""},
		{UpgradeCheckPath, "get", "403", reader, UpgradeCheckPath, "ApiKey guest-key", "", ""},
		{UpgradePerformPath, "post", "200", Options{}, UpgradePerformPath, apiKey, "request-example", ""},
		{UpgradePerformPath, "post", "400", Options{}, UpgradePerformPath, apiKey, `{"config":["roles","nodes"]}`, ""},
		{UpgradePerformPath, "post", "401", Options{}, UpgradePerformPath, basic("admin", "admin"), "request-example", ""},
		{UpgradePerformPath, "post", "403", reader, UpgradePerformPath, "ApiKey reader-key", "request-example", ""},
		{RolesPath, "get", "200", Options{}, RolesPath, apiKey, "", ""},
		{RolesPath, "get", "401", Options{}, RolesPath, "", "", ""},
		{RolesMappingPath, "get", "200", Options{}, RolesMappingPath, "ApiKey " + DefaultReaderKey, "", ""},
		{RolesMappingPath, "get", "401", Options{}, RolesMappingPath, "ApiKey nope", "", ""},
		// The sandbox-only calls.
		{"/_sandbox/state", "get", "200", small, "/_sandbox/state", apiKey, "", "nodes/node-2/_stop"},
		{"/_sandbox/nodes/{node}/_stop", "post", "200", Options{}, "/_sandbox/nodes/node-3/_stop", apiKey, "", ""},
		{"/_sandbox/nodes/{node}/_start", "post", "200", Options{}, "/_sandbox/nodes/node-3/_start", apiKey, "", "nodes/node-3/_stop"},
		{"/_sandbox/indices/{index}", "put", "200", Options{}, "/_sandbox/indices/events", apiKey, "request-example", ""},
		{"/_sandbox/indices/{index}", "delete", "200", Options{}, "/_sandbox/indices/orders", apiKey, "", ""},
		{"/_sandbox/indices/{index}/_close", "post", "200", Options{}, "/_sandbox/indices/orders/_close", apiKey, "", ""},
		{"/_sandbox/indices/{index}/_open", "post", "200", Options{}, "/_sandbox/indices/logs-2026.09/_open", apiKey, "", ""},
		{"/_sandbox/allocation", "put", "200", Options{}, "/_sandbox/allocation", apiKey, "request-example", ""},
		{"/_sandbox/_reset", "post", "200", Options{}, "/_sandbox/_reset", apiKey, "", ""},
		{"/_sandbox/state", "get", "401", Options{}, "/_sandbox/state", "", "", ""},
		{"/_sandbox/state", "get", "403", reader, "/_sandbox/state", "ApiKey guest-key", "", ""},
		{"/_sandbox/nodes/{node}/_stop", "post", "401", Options{}, "/_sandbox/nodes/node-3/_stop", "", "", ""},
		{"/_sandbox/nodes/{node}/_stop", "post", "403", reader, "/_sandbox/nodes/node-3/_stop", "ApiKey reader-key", "", ""},
		{"/_sandbox/nodes/{node}/_start", "post", "401", Options{}, "/_sandbox/nodes/node-3/_start", "", "", ""},
		{"/_sandbox/nodes/{node}/_start", "post", "403", reader, "/_sandbox/nodes/node-3/_start", "ApiKey reader-key", "", ""},
		{"/_sandbox/indices/{index}", "put", "401", Options{}, "/_sandbox/indices/events", "", "request-example", ""},
		{"/_sandbox/indices/{index}", "put", "403", reader, "/_sandbox/indices/events", "ApiKey reader-key", "request-example", ""},
		{"/_sandbox/indices/{index}", "delete", "401", Options{}, "/_sandbox/indices/orders", "", "", ""},
		{"/_sandbox/indices/{index}", "delete", "403", reader, "/_sandbox/indices/orders", "ApiKey reader-key", "", ""},
		{"/_sandbox/indices/{index}/_close", "post", "401", Options{}, "/_sandbox/indices/orders/_close", "", "", ""},
		{"/_sandbox/indices/{index}/_close", "post", "403", reader, "/_sandbox/indices/orders/_close", "ApiKey reader-key", "", ""},
		{"/_sandbox/indices/{index}/_open", "post", "401", Options{}, "/_sandbox/indices/logs-2026.09/_open", "", "", ""},
		{"/_sandbox/indices/{index}/_open", "post", "403", reader, "/_sandbox/indices/logs-2026.09/_open", "ApiKey reader-key", "", ""},
		{"/_sandbox/allocation", "put", "401", Options{}, "/_sandbox/allocation", "", "request-example", ""},
		{"/_sandbox/allocation", "put", "403", reader, "/_sandbox/allocation", "ApiKey reader-key", "request-example", ""},
		{"/_sandbox/_reset", "post", "401", Options{}, "/_sandbox/_reset", "", "", ""},
		{"/_sandbox/_reset", "post", "403", reader, "/_sandbox/_reset", "ApiKey reader-key", "", ""},
	}
}

// TestDocumentedExamples sends each operation the request its documented
// example describes and wants the documented status and body (in value).
func TestDocumentedExamples(t *testing.T) {
	s := loadSpec(t)
	seen := map[string]bool{}
	for _, tt := range exampleCases() {
		op, ok := s.Paths[tt.path][tt.method]
		if !ok {
			t.Errorf("the document has no %s %s", tt.method, tt.path)
			continue
		}
		resp := s.resolve(t, op.Responses[tt.status])
		if len(resp.Content) == 0 {
			t.Errorf("%s %s: the document has no example", op.OperationID, tt.status)
			continue
		}
		seen[tt.path+" "+tt.method+" "+tt.status] = true
		body := tt.body
		if body == "request-example" {
			b, err := json.Marshal(op.RequestBody.Content["application/json"].Example)
			if err != nil {
				t.Fatalf("encoding the request example: %v", err)
			}
			body = string(b)
		}
		t.Run(op.OperationID+"/"+tt.status, func(t *testing.T) {
			h := newTest(tt.opts)
			if tt.setup != "" {
				fault(t, h, "POST", tt.setup, "")
			}
			w := do(t, h, strings.ToUpper(tt.method), tt.target, tt.auth, body)
			if got := strconv.Itoa(w.Code); got != tt.status {
				t.Errorf("status: got %s; want %s (body %s)", got, tt.status, w.Body)
			}
			for media, c := range resp.Content {
				if got := w.Header().Get("Content-Type"); !strings.HasPrefix(got, media) {
					t.Errorf("Content-Type: got %q; want %s", got, media)
				}
				if media == "text/plain" {
					if got, want := w.Body.String(), c.Example; got != want {
						t.Errorf("body: got %q; want %q", got, want)
					}
					continue
				}
				var got any
				if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
					t.Fatalf("decoding %s: %v", w.Body, err)
				}
				if want := spectest.Normalize(t, c.Example); !reflect.DeepEqual(got, want) {
					e, _ := json.Marshal(want)
					t.Errorf("body:\n got %s\nwant %s", w.Body, e)
				}
			}
		})
	}
	// Every documented example of the four operations is covered.
	for path, ops := range s.Paths {
		for method, op := range ops {
			for status, r := range op.Responses {
				if len(s.resolve(t, r).Content) > 0 && !seen[path+" "+method+" "+status] {
					t.Errorf("%s %s %s has an example this test does not check", method, path, status)
				}
			}
		}
	}
}
