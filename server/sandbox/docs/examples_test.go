package docs

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
	"testing"

	"loupe/server/sandbox/internal/spectest"
)

// spec is the part of the OpenAPI document the example test reads.
type spec struct {
	Paths map[string]struct {
		Get struct {
			OperationID string `yaml:"operationId"`
			Responses   map[string]struct {
				Ref     string `yaml:"$ref"`
				Content map[string]struct {
					Example any `yaml:"example"`
				} `yaml:"content"`
			} `yaml:"responses"`
		} `yaml:"get"`
	} `yaml:"paths"`
	Components struct {
		Responses map[string]struct {
			Content map[string]struct {
				Example any `yaml:"example"`
			} `yaml:"content"`
		} `yaml:"responses"`
	} `yaml:"components"`
}

// example returns the documented JSON example of path's GET status response,
// following a $ref to components/responses.
func (s spec) example(path, status string) any {
	r := s.Paths[path].Get.Responses[status]
	if r.Ref != "" {
		name := r.Ref[len("#/components/responses/"):]
		return s.Components.Responses[name].Content["application/json"].Example
	}
	return r.Content["application/json"].Example
}

// loadSpec parses content/openapi/docs.yaml from the embedded content.
func loadSpec(t *testing.T) spec {
	t.Helper()
	var s spec
	spectest.Load(t, "docs", &s)
	return s
}

// firstVersions keeps as many active versions as the example shows: the
// document's listProjectActiveVersions example lists only the first of pip's
// 12 active versions (its listVersions example counts 12).
func firstVersions(got, want any) any {
	g, w := got.(map[string]any), want.(map[string]any)
	n := len(w["versions"].([]any))
	return map[string]any{"versions": g["versions"].([]any)[:min(n, len(g["versions"].([]any)))]}
}

// firstCommands keeps as many commands per build as the example shows: the
// document's listBuilds example shows one command of build 7367364, whose
// getBuild example shows two.
func firstCommands(got, want any) any {
	g, w := got.(map[string]any), want.(map[string]any)
	for i, b := range g["results"].([]any) {
		if i >= len(w["results"].([]any)) {
			break
		}
		n := len(w["results"].([]any)[i].(map[string]any)["commands"].([]any))
		cmds := b.(map[string]any)["commands"].([]any)
		b.(map[string]any)["commands"] = cmds[:min(n, len(cmds))]
	}
	return g
}

// TestDocumentedExamples sends each operation the request its documented
// example describes and wants the documented body, value for value.
func TestDocumentedExamples(t *testing.T) {
	s := loadSpec(t)
	const embedQuery = "?project=pip&version=stable&doc=user_guide&section=requirements-files"
	tests := []struct {
		path, status, target string
		opts                 Options
		trim                 func(got, want any) any // known differences of the document, see above
	}{
		{"/api/v2/project/", "200", "/api/v2/project/?slug=pip", Options{}, nil},
		{"/api/v2/project/", "404", "/api/v2/project/?slug=pip&page=2", Options{}, nil},
		{"/api/v2/project/", "410", "/api/v2/project/", Options{DisableUnfilteredLists: true}, nil},
		{"/api/v2/project/{id}/", "200", "/api/v2/project/6/", Options{}, nil},
		{"/api/v2/project/{id}/", "404", "/api/v2/project/999/", Options{}, nil},
		{"/api/v2/project/{id}/active_versions/", "200", "/api/v2/project/6/active_versions/", Options{}, firstVersions},
		{"/api/v2/project/{id}/active_versions/", "404", "/api/v2/project/999/active_versions/", Options{}, nil},
		{"/api/v2/version/", "200", "/api/v2/version/?project__slug=pip&active=true&limit=1", Options{}, nil},
		{"/api/v2/version/", "410", "/api/v2/version/?active=true", Options{DisableUnfilteredLists: true}, nil},
		{"/api/v2/version/{id}/", "200", "/api/v2/version/1437428/", Options{}, nil},
		{"/api/v2/version/{id}/", "404", "/api/v2/version/999/", Options{}, nil},
		{"/api/v2/build/", "200", "/api/v2/build/?project__slug=pip&limit=1", Options{}, firstCommands},
		{"/api/v2/build/", "410", "/api/v2/build/", Options{DisableUnfilteredLists: true}, nil},
		{"/api/v2/build/{id}/", "200", "/api/v2/build/7367364/", Options{}, nil},
		{"/api/v2/build/{id}/", "404", "/api/v2/build/999/", Options{}, nil},
		{"/api/v2/embed/", "200", "/api/v2/embed/" + embedQuery, Options{}, nil},
		{"/api/v2/embed/", "200", "/api/v2/embed/?url=https://pip.pypa.io/en/stable/user_guide/%23requirements-files", Options{}, nil},
		{"/api/v2/embed/", "400", "/api/v2/embed/?version=stable", Options{}, nil},
		{"/api/v2/embed/", "404", "/api/v2/embed/?project=pip&doc=user_guide&section=no-such-section", Options{}, nil},
	}
	// The real service's 410 of the retired embed endpoint is documented as
	// never sent by the sandbox.
	seen := map[string]bool{"/api/v2/embed/ 410": true}
	behindProxy := http.Header{"X-Forwarded-Proto": {"https"}, "X-Forwarded-Host": {"readthedocs.org"}, "X-Forwarded-Prefix": {""}}
	for _, tt := range tests {
		op := s.Paths[tt.path].Get
		ex := s.example(tt.path, tt.status)
		if ex == nil {
			t.Errorf("GET %s %s: the document has no example", tt.path, tt.status)
			continue
		}
		seen[tt.path+" "+tt.status] = true
		want := spectest.Normalize(t, ex)
		for _, via := range []struct {
			name   string
			h      http.Handler
			target string
			header http.Header
		}{
			{"direct", New(tt.opts), "https://readthedocs.org" + tt.target, nil},
			{"forwarded", mounted(tt.opts), "http://127.0.0.1:8080/sandbox/docs" + tt.target, behindProxy},
		} {
			t.Run(op.OperationID+"/"+tt.status+"/"+via.name, func(t *testing.T) {
				w := serve(t, via.h, http.MethodGet, via.target, via.header)
				if got := strconv.Itoa(w.Code); got != tt.status {
					t.Errorf("status: got %s; want %s", got, tt.status)
				}
				var got any
				if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
					t.Fatalf("decoding %s: %v", w.Body, err)
				}
				if tt.trim != nil {
					got = tt.trim(got, want)
				}
				if !reflect.DeepEqual(got, want) {
					g, _ := json.Marshal(got)
					e, _ := json.Marshal(want)
					t.Errorf("body:\ngot  %s\nwant %s", g, e)
				}
			})
		}
	}
	for path, ops := range s.Paths {
		for status := range ops.Get.Responses {
			if s.example(path, status) != nil && !seen[path+" "+status] {
				t.Errorf("GET %s %s has an example this test does not check", path, status)
			}
		}
	}
}
