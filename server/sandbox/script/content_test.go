package script

import (
	"reflect"
	"strings"
	"testing"
)

const contentPath = "/v1/projects/" + SeedScriptID + "/content"

// manifestFile is a valid manifest file as JSON.
const manifestFile = `{"name":"appsscript","type":"JSON","source":"{\"timeZone\":\"Europe/London\",\"runtimeVersion\":\"V8\",\"executionApi\":{\"access\":\"ANYONE\"}}"}`

// TestUpdateContentValidation checks that invalid file sets are refused naming the field, and
// leave the content unchanged.
func TestUpdateContentValidation(t *testing.T) {
	h, _ := newTest(t)
	before := mustCall(t, h, "GET", contentPath, "")
	tests := []struct {
		name, body, wantField string
	}{
		{"no files", `{}`, "files"},
		{"empty files", `{"files":[]}`, "files"},
		{"no manifest", `{"files":[{"name":"Code","type":"SERVER_JS","source":""}]}`, "files"},
		{"bad type", `{"files":[` + manifestFile + `,{"name":"Code","type":"GS","source":""}]}`, "files[1].type"},
		{"unspecified type", `{"files":[` + manifestFile + `,{"name":"Code","type":"ENUM_TYPE_UNSPECIFIED","source":""}]}`, "files[1].type"},
		{"missing type", `{"files":[` + manifestFile + `,{"name":"Code","source":""}]}`, "files[1].type"},
		{"empty name", `{"files":[` + manifestFile + `,{"name":"","type":"HTML","source":""}]}`, "files[1].name"},
		{"bad name", `{"files":[` + manifestFile + `,{"name":"a*b","type":"HTML","source":""}]}`, "files[1].name"},
		{"duplicate", `{"files":[` + manifestFile + `,{"name":"A","type":"HTML"},{"name":"A","type":"HTML"}]}`, "files[2].name"},
		{"two manifests", `{"files":[` + manifestFile + `,` + manifestFile + `]}`, "files[1].name"},
		{"other JSON file", `{"files":[` + manifestFile + `,{"name":"data","type":"JSON","source":"{}"}]}`, "files[1].name"},
		{"manifest not JSON", `{"files":[{"name":"appsscript","type":"JSON","source":"nope"}]}`, "files[0].source"},
		{"manifest not an object", `{"files":[{"name":"appsscript","type":"JSON","source":"[1]"}]}`, "files[0].source"},
		{"manifest bad runtime", `{"files":[{"name":"appsscript","type":"JSON","source":"{\"runtimeVersion\":\"V9\"}"}]}`, "files[0].source"},
		{"manifest bad access", `{"files":[{"name":"appsscript","type":"JSON","source":"{\"executionApi\":{\"access\":\"ALL\"}}"}]}`, "files[0].source"},
		{"manifest bad structure", `{"files":[{"name":"appsscript","type":"JSON","source":"{\"executionApi\":7}"}]}`, "files[0].source"},
		{"other scriptId", `{"scriptId":"1other","files":[` + manifestFile + `]}`, "scriptId"},
	}
	for _, tt := range tests {
		code, v := call(t, h, "PUT", contentPath, tt.body)
		st, msg := errorOf(v)
		if code != 400 || st != "INVALID_ARGUMENT" {
			t.Errorf("%s: got %d %s; want 400 INVALID_ARGUMENT", tt.name, code, st)
		}
		if got := get(v, "error", "details", 0, "fieldViolations", 0, "field"); got != tt.wantField {
			t.Errorf("%s: field got %v; want %s (%s)", tt.name, got, tt.wantField, msg)
		}
	}
	if after := mustCall(t, h, "GET", contentPath, ""); !reflect.DeepEqual(after, before) {
		t.Errorf("content changed after refused updates: got %s; want %s", js(after), js(before))
	}
	if code, _ := call(t, h, "PUT", "/v1/projects/nope/content", `{"files":[`+manifestFile+`]}`); code != 404 {
		t.Errorf("unknown project: got %d; want 404", code)
	}
}

// TestUpdateContentReplaces checks that an update replaces every file, lists functions, ignores
// read-only fields, and becomes the HEAD content while versions keep theirs.
func TestUpdateContentReplaces(t *testing.T) {
	h, c := newTest(t)
	c.set(t, "2026-11-21T08:00:00Z")
	body := `{"files":[` + manifestFile + `,{"name":"Lib","type":"SERVER_JS","createTime":"2000-01-01T00:00:00Z",` +
		`"lastModifyUser":{"email":"x@y"},"functionSet":{"values":[{"name":"fake"}]},` +
		`"source":"function a() {}\n  function b(x, y = 2) {\n}\nfunction a(z) {}\nvar f = function c() {};\n"}]}`
	got := mustCall(t, h, "PUT", contentPath, body)
	lib := get(got, "files", 1).(map[string]any)
	want := map[string]any{"name": "Lib", "type": "SERVER_JS", "source": lib["source"],
		"createTime": "2026-11-21T08:00:00.000Z", "updateTime": "2026-11-21T08:00:00.000Z",
		"functionSet": map[string]any{"values": []any{
			map[string]any{"name": "a"},
			map[string]any{"name": "b", "parameters": []any{"x", "y"}},
		}}}
	if !reflect.DeepEqual(lib, want) {
		t.Errorf("file: got %s; want %s", js(lib), js(want))
	}
	head := mustCall(t, h, "GET", contentPath, "")
	if n := len(get(head, "files").([]any)); n != 2 {
		t.Errorf("HEAD: got %d files; want 2 (Code is gone)", n)
	}
	if got := get(head, "files", 1, "lastModifyUser", "email"); got != "ada@example.com" {
		t.Errorf("HEAD lastModifyUser: got %v; want ada@example.com", got)
	}
	p := mustCall(t, h, "GET", "/v1/projects/"+SeedScriptID, "")
	if got := p["updateTime"].(string) + " " + get(p, "lastModifyUser", "email").(string); got != "2026-11-21T08:00:00.000Z ada@example.com" {
		t.Errorf("project: got %s; want updated now by Ada", got)
	}
	v3 := mustCall(t, h, "GET", contentPath+"?versionNumber=3", "")
	if got := get(v3, "files", 1, "source"); got != seedCode {
		t.Errorf("version 3: got %v; want the seed code", got)
	}
}

// TestGetContentVersions checks versionNumber: HEAD when absent or 0, a version's files, errors.
func TestGetContentVersions(t *testing.T) {
	h, _ := newTest(t)
	tests := []struct {
		query      string
		wantCode   int
		wantSource string // of the Code file
	}{
		{"", 200, seedCode},
		{"?versionNumber=0", 200, seedCode},
		{"?versionNumber=1", 200, seedFirstCode},
		{"?versionNumber=2", 200, seedAddOnCode},
		{"?versionNumber=3", 200, seedCode},
		{"?versionNumber=4", 404, ""},
		{"?versionNumber=-1", 404, ""},
		{"?versionNumber=x", 400, ""},
		{"?versionNumber=99999999999", 400, ""},
	}
	for _, tt := range tests {
		code, v := call(t, h, "GET", contentPath+tt.query, "")
		if code != tt.wantCode {
			t.Errorf("%s: got %d; want %d", tt.query, code, tt.wantCode)
			continue
		}
		if tt.wantSource != "" {
			if got := get(v, "files", 1, "source"); got != tt.wantSource {
				t.Errorf("%s: source got %q; want %q", tt.query, got, tt.wantSource)
			}
		}
	}
	v2 := mustCall(t, h, "GET", contentPath+"?versionNumber=2", "")
	names := []string{}
	for _, f := range get(v2, "files", 1, "functionSet", "values").([]any) {
		names = append(names, get(f, "name").(string))
	}
	if got := strings.Join(names, ","); got != "sendInvoices,onGmailMessage" {
		t.Errorf("version 2 functions: got %s; want sendInvoices,onGmailMessage", got)
	}
}
