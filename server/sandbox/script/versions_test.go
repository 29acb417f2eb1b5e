package script

import (
	"fmt"
	"testing"
)

const versionsPath = "/v1/projects/" + SeedScriptID + "/versions"

// TestCreateVersion checks numbering, the snapshot of the HEAD files and ignored read-only fields.
func TestCreateVersion(t *testing.T) {
	h, c := newTest(t)
	c.set(t, "2026-11-21T09:00:00Z")
	v := mustCall(t, h, "POST", versionsPath, `{"description":"four","versionNumber":99,"scriptId":"x","createTime":"2000-01-01T00:00:00Z"}`)
	if got, want := js(v), `{"createTime":"2026-11-21T09:00:00.000Z","description":"four","scriptId":"`+SeedScriptID+`","versionNumber":4}`; got != want {
		t.Errorf("create: got %s; want %s", got, want)
	}
	mustCall(t, h, "PUT", contentPath, `{"files":[`+manifestFile+`]}`)
	if got := mustCall(t, h, "POST", versionsPath, ``)["versionNumber"]; got != 5.0 {
		t.Errorf("second create: versionNumber got %v; want 5", got)
	}
	tests := []struct {
		version   int
		wantFiles int
	}{{4, 2}, {5, 1}}
	for _, tt := range tests {
		got := mustCall(t, h, "GET", fmt.Sprintf("%s?versionNumber=%d", contentPath, tt.version), "")
		if n := len(get(got, "files").([]any)); n != tt.wantFiles {
			t.Errorf("version %d: got %d files; want %d", tt.version, n, tt.wantFiles)
		}
	}
	if got := mustCall(t, h, "GET", versionsPath+"/5", "")["description"]; got != nil {
		t.Errorf("version 5 description: got %v; want none", got)
	}
}

// TestVersionErrors checks the errors of versions.get, list and create.
func TestVersionErrors(t *testing.T) {
	h, _ := newTest(t)
	tests := []struct {
		method, path, body string
		wantCode           int
		wantField          any
	}{
		{"GET", versionsPath + "/9", "", 404, nil},
		{"GET", versionsPath + "/0", "", 404, nil},
		{"GET", versionsPath + "/x", "", 400, "versionNumber"},
		{"GET", "/v1/projects/nope/versions/1", "", 404, nil},
		{"GET", "/v1/projects/nope/versions", "", 404, nil},
		{"POST", "/v1/projects/nope/versions", "{}", 404, nil},
		{"POST", versionsPath, `{"descr":"x"}`, 400, nil},
		{"GET", versionsPath + "?pageSize=x", "", 400, "pageSize"},
		{"GET", versionsPath + "?pageSize=-1", "", 400, "pageSize"},
		{"GET", versionsPath + "?pageToken=zzz", "", 400, "pageToken"},
		{"GET", versionsPath + "?pageToken=" + versionToken(7), "", 400, "pageToken"},
		{"GET", versionsPath + "?pageToken=" + deploymentToken("AKfycb"), "", 400, "pageToken"},
	}
	for _, tt := range tests {
		code, v := call(t, h, tt.method, tt.path, tt.body)
		if code != tt.wantCode {
			t.Errorf("%s %s: got %d; want %d (%s)", tt.method, tt.path, code, tt.wantCode, js(v))
		}
		if tt.wantField != nil {
			if got := get(v, "error", "details", 0, "fieldViolations", 0, "field"); got != tt.wantField {
				t.Errorf("%s %s: field got %v; want %v", tt.method, tt.path, got, tt.wantField)
			}
		}
	}
}

// TestListVersionsPaging walks every page size through versions created for the test.
func TestListVersionsPaging(t *testing.T) {
	h, _ := newTest(t)
	for range 4 {
		mustCall(t, h, "POST", versionsPath, `{}`)
	}
	for size := 1; size <= 8; size++ {
		var got []float64
		pages, token := 0, ""
		for {
			path := fmt.Sprintf("%s?pageSize=%d", versionsPath, size)
			if token != "" {
				path += "&pageToken=" + token
			}
			p := mustCall(t, h, "GET", path, "")
			pages++
			for _, v := range get(p, "versions").([]any) {
				got = append(got, get(v, "versionNumber").(float64))
			}
			token, _ = p["nextPageToken"].(string)
			if token == "" || pages > 10 {
				break
			}
		}
		if want := []float64{1, 2, 3, 4, 5, 6, 7}; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("pageSize %d: got %v; want %v", size, got, want)
		}
		if want := (7 + size - 1) / size; pages != want {
			t.Errorf("pageSize %d: got %d pages; want %d", size, pages, want)
		}
	}
	// Default page size: all seven on one page, no token.
	if p := mustCall(t, h, "GET", versionsPath+"?pageSize=0", ""); len(p["versions"].([]any)) != 7 || p["nextPageToken"] != nil {
		t.Errorf("default page: got %s; want 7 versions and no token", js(p))
	}
}
