package script

import (
	"strings"
	"testing"
)

// TestCreateProject creates projects and reads them back with their manifest and HEAD deployment.
func TestCreateProject(t *testing.T) {
	h, c := newTest(t)
	tests := []struct {
		body, wantTitle, wantParent string
	}{
		{`{"title":"Timesheets"}`, "Timesheets", ""},
		{`{"title":"Bound","parentId":"1SheetId"}`, "Bound", "1SheetId"},
		{``, "Untitled project", ""},
		{`{}`, "Untitled project", ""},
	}
	ids := map[string]bool{}
	for _, tt := range tests {
		p := mustCall(t, h, "POST", "/v1/projects", tt.body)
		id, _ := p["scriptId"].(string)
		if id == "" || ids[id] || id == SeedScriptID {
			t.Errorf("%s: scriptId got %q; want a new ID", tt.body, id)
		}
		ids[id] = true
		if got := p["title"]; got != tt.wantTitle {
			t.Errorf("%s: title got %v; want %q", tt.body, got, tt.wantTitle)
		}
		if got, _ := p["parentId"].(string); got != tt.wantParent {
			t.Errorf("%s: parentId got %q; want %q", tt.body, got, tt.wantParent)
		}
		if got, want := p["createTime"], "2026-11-20T12:10:00.000Z"; got != want {
			t.Errorf("%s: createTime got %v; want %s", tt.body, got, want)
		}
		if got := get(p, "creator", "email"); got != "ada@example.com" {
			t.Errorf("%s: creator got %v; want ada@example.com", tt.body, got)
		}
		if got := mustCall(t, h, "GET", "/v1/projects/"+id, ""); js(got) != js(p) {
			t.Errorf("get: got %s; want %s", js(got), js(p))
		}
		content := mustCall(t, h, "GET", "/v1/projects/"+id+"/content", "")
		if got := js(get(content, "files", 0, "name")) + js(get(content, "files", 0, "type")); got != `"appsscript""JSON"` {
			t.Errorf("content: got %s; want only the manifest", js(content))
		}
		if n := len(get(content, "files").([]any)); n != 1 {
			t.Errorf("content: got %d files; want 1", n)
		}
		deps := mustCall(t, h, "GET", "/v1/projects/"+id+"/deployments", "")
		if n := len(get(deps, "deployments").([]any)); n != 1 || get(deps, "deployments", 0, "deploymentConfig", "versionNumber") != nil {
			t.Errorf("deployments: got %s; want only HEAD", js(deps))
		}
		if v := mustCall(t, h, "GET", "/v1/projects/"+id+"/versions", ""); len(v) != 0 {
			t.Errorf("versions: got %s; want {}", js(v))
		}
	}
	c.set(t, "2026-11-21T00:00:00Z")
	// IDs are deterministic per handler: a second handler makes the same first ID.
	h2, _ := newTest(t)
	a := mustCall(t, h2, "POST", "/v1/projects", `{"title":"x"}`)["scriptId"]
	b := mustCall(t, New(Options{}), "POST", "/v1/projects", `{"title":"x"}`)["scriptId"]
	if a != b || !strings.HasPrefix(a.(string), "1") || len(a.(string)) != len(SeedScriptID) {
		t.Errorf("IDs: got %v and %v; want the same 57-character ID", a, b)
	}
}

// TestProjectErrors checks the 400s of create and the 404 of get.
func TestProjectErrors(t *testing.T) {
	h, _ := newTest(t)
	tests := []struct {
		method, path, body string
		wantCode           int
		wantMsg            string
	}{
		{"POST", "/v1/projects", `{"titel":"x"}`, 400, `Invalid JSON payload received. Unknown name "titel": Cannot find field.`},
		{"POST", "/v1/projects", `{"title":5}`, 400, "Invalid JSON payload received. Invalid value at 'title': expected a string, got a number."},
		{"POST", "/v1/projects", `{"title":`, 400, "Invalid JSON payload received. unexpected EOF."},
		{"POST", "/v1/projects", `{} {}`, 400, "Invalid JSON payload received. trailing data."},
		{"GET", "/v1/projects/nope", "", 404, "Requested entity was not found."},
		{"POST", "/v1/projects", `{"title":"x"}`, 409, ""},
	}
	dup := New(Options{NewID: func(string) string { return SeedScriptID }})
	for i, tt := range tests {
		hh := h
		if i == len(tests)-1 {
			hh = dup
		}
		code, v := call(t, hh, tt.method, tt.path, tt.body)
		_, msg := errorOf(v)
		if code != tt.wantCode || (tt.wantMsg != "" && msg != tt.wantMsg) {
			t.Errorf("%s %s %s: got %d %q; want %d %q", tt.method, tt.path, tt.body, code, msg, tt.wantCode, tt.wantMsg)
		}
	}
}
