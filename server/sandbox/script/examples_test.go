package script

import (
	"io/fs"
	"net/http"
	"reflect"
	"strconv"
	"testing"

	"go.yaml.in/yaml/v4"

	"loupe/content"
	"loupe/server/sandbox/internal/spectest"
)

// media is the JSON content of a request body or response.
type media struct {
	Content map[string]struct {
		Example any `yaml:"example"`
	} `yaml:"content"`
	Ref string `yaml:"$ref"`
}

// operationDoc is the part of an operation the example test reads.
type operationDoc struct {
	OperationID string           `yaml:"operationId"`
	RequestBody media            `yaml:"requestBody"`
	Responses   map[string]media `yaml:"responses"`
}

// spec is the part of the OpenAPI document the example test reads.
type spec struct {
	Paths      map[string]map[string]operationDoc
	Components struct {
		Responses map[string]media `yaml:"responses"`
	} `yaml:"components"`
}

// rawSpec is the document with each path item kept raw (it also holds "parameters").
type rawSpec struct {
	Paths      map[string]map[string]yaml.Node `yaml:"paths"`
	Components struct {
		Responses map[string]media `yaml:"responses"`
	} `yaml:"components"`
}

// example returns the JSON example of m, or nil.
func (m media) example() any { return m.Content["application/json"].Example }

// loadSpec parses content/openapi/script.yaml from the embedded content.
func loadSpec(t *testing.T) spec {
	t.Helper()
	b, err := fs.ReadFile(content.FS, "openapi/script.yaml")
	if err != nil {
		t.Fatalf("reading the script document: %v", err)
	}
	var raw rawSpec
	if err := yaml.Unmarshal(b, &raw); err != nil {
		t.Fatalf("parsing the script document: %v", err)
	}
	s := spec{Paths: map[string]map[string]operationDoc{}, Components: raw.Components}
	for path, item := range raw.Paths {
		s.Paths[path] = map[string]operationDoc{}
		for method, node := range item {
			if method == "parameters" {
				continue
			}
			var op operationDoc
			if err := node.Decode(&op); err != nil {
				t.Fatalf("parsing %s %s: %v", method, path, err)
			}
			s.Paths[path][method] = op
		}
	}
	return s
}

// exampleCase is the request that reproduces one documented example.
type exampleCase struct {
	op, status string // operationId and response status; status "" names a components response
	component  string
	method     string
	path       string
	body       bool   // send the operation's documented request body
	rawBody    string // or this body
	auth       string // Authorization; "-" for none
	scopes     string // when set, an access token of the sandbox's authorization server for these
	opts       func(c *clock) Options
	now        string
	setup      func(t *testing.T, h http.Handler, c *clock)
}

// TestDocumentedExamples sends, for each documented example, the request it describes to a
// fresh handler and wants the documented body, equal in value, and the documented status.
func TestDocumentedExamples(t *testing.T) {
	s := loadSpec(t)
	const p1 = "/v1/projects/" + SeedScriptID
	tests := []exampleCase{
		{op: "projects.create", status: "200", method: "POST", path: "/v1/projects", body: true, now: "2026-11-20T09:14:03.512Z",
			opts: func(c *clock) Options {
				return Options{Now: c.now, NoSeed: true, NewID: func(string) string { return SeedScriptID }}
			}},
		{op: "projects.get", status: "200", method: "GET", path: p1},
		{op: "projects.getContent", status: "200", method: "GET", path: p1 + "/content"},
		{op: "projects.updateContent", status: "200", method: "PUT", path: p1 + "/content", body: true, now: "2026-11-20T11:30:00Z"},
		{op: "projects.getMetrics", status: "200", method: "GET", path: p1 + "/metrics?metricsGranularity=DAILY"},
		{op: "projects.deployments.create", status: "200", method: "POST", path: p1 + "/deployments", body: true, now: "2026-11-20T12:00:00Z",
			opts: func(c *clock) Options {
				return Options{Now: c.now, NewID: func(string) string { return SeedDeploymentID }}
			},
			setup: func(t *testing.T, h http.Handler, _ *clock) {
				mustCall(t, h, "DELETE", p1+"/deployments/"+SeedDeploymentID, "")
			}},
		{op: "projects.deployments.list", status: "200", method: "GET", path: p1 + "/deployments?pageSize=2"},
		{op: "projects.deployments.get", status: "200", method: "GET", path: p1 + "/deployments/" + SeedAddOnDeploymentID},
		{op: "projects.deployments.update", status: "200", method: "PUT", path: p1 + "/deployments/" + SeedDeploymentID, body: true, now: "2026-12-01T09:00:00Z",
			setup: func(t *testing.T, h http.Handler, c *clock) {
				c.set(t, "2026-11-30T16:20:00Z")
				mustCall(t, h, "POST", p1+"/versions", `{"description":"Adds the December invoice template"}`)
			}},
		{op: "projects.deployments.delete", status: "200", method: "DELETE", path: p1 + "/deployments/" + SeedDeploymentID},
		{op: "projects.versions.create", status: "200", method: "POST", path: p1 + "/versions", body: true, now: "2026-11-30T16:20:00Z"},
		{op: "projects.versions.list", status: "200", method: "GET", path: p1 + "/versions?pageSize=2"},
		{op: "projects.versions.get", status: "200", method: "GET", path: p1 + "/versions/3"},
		{op: "processes.list", status: "200", method: "GET", path: "/v1/processes?pageSize=2"},
		{op: "processes.listScriptProcesses", status: "200", method: "GET",
			path: "/v1/processes:listScriptProcesses?scriptId=" + SeedScriptID + "&scriptProcessFilter.deploymentId=" + SeedDeploymentID},
		{op: "scripts.run", status: "200", method: "POST", path: "/v1/scripts/" + SeedDeploymentID + ":run", body: true},
		{component: "BadRequest", method: "POST", path: "/v1/projects", rawBody: `{"titel":"Invoice mailer"}`},
		{component: "Unauthenticated", method: "GET", path: p1, auth: "-"},
		{component: "PermissionDenied", method: "GET", path: p1 + "/metrics?metricsGranularity=DAILY", scopes: scopeReadonly},
		{component: "NotFound", method: "GET", path: "/v1/projects/1NoSuchProject"},
	}
	ops := map[string]string{} // operationId → "path method"
	for path, methods := range s.Paths {
		for method, op := range methods {
			ops[op.OperationID] = path + " " + method
		}
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		var want any
		var reqBody any
		wantStatus := tt.status
		name := tt.op + "/" + tt.status
		if tt.component != "" {
			want = s.Components.Responses[tt.component].example()
			name = tt.component
			seen[tt.component] = true
			if want != nil {
				wantStatus = strconv.Itoa(int(get(spectest.Normalize(t, want), "error", "code").(float64)))
			}
		} else {
			var path, method string
			if _, err := fmtSscan(ops[tt.op], &path, &method); err != nil {
				t.Errorf("%s: the document has no such operation", tt.op)
				continue
			}
			op := s.Paths[path][method]
			want = op.Responses[tt.status].example()
			reqBody = op.RequestBody.example()
			seen[tt.op+" "+tt.status] = true
		}
		if want == nil {
			t.Errorf("%s: the document has no example", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			c := &clock{}
			c.set(t, "2026-11-20T12:10:00Z")
			opts := Options{Now: c.now}
			if tt.opts != nil {
				opts = tt.opts(c)
			}
			h := New(opts)
			if tt.setup != nil {
				tt.setup(t, h, c)
			}
			if tt.now != "" {
				c.set(t, tt.now)
			}
			body := tt.rawBody
			if tt.body {
				body = js(reqBody)
			}
			auth := "Bearer loupe-sandbox-key"
			if tt.auth == "-" {
				auth = ""
			}
			if tt.scopes != "" {
				access, _ := signIn(t, h, tt.scopes)
				auth = "Bearer " + access
			}
			code, got := callAuth(t, h, tt.method, tt.path, body, auth)
			if strconv.Itoa(code) != wantStatus {
				t.Errorf("status: got %d; want %s", code, wantStatus)
			}
			if w := spectest.Normalize(t, want); !reflect.DeepEqual(got, w) {
				t.Errorf("body:\n got %s\nwant %s", js(got), js(w))
			}
		})
	}
	// Every documented example is covered, except the one the sandbox cannot cause: an
	// exhausted quota (it has no quota).
	for path, methods := range s.Paths {
		for _, op := range methods {
			for status, r := range op.Responses {
				if r.example() != nil && !seen[op.OperationID+" "+status] {
					t.Errorf("%s %s %s has an example this test does not check", op.OperationID, path, status)
				}
			}
		}
	}
	for name, r := range s.Components.Responses {
		if r.example() != nil && !seen[name] && name != "ResourceExhausted" {
			t.Errorf("components.responses.%s has an example this test does not check", name)
		}
	}
}
