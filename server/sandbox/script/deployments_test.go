package script

import (
	"fmt"
	"testing"
)

const deploymentsPath = "/v1/projects/" + SeedScriptID + "/deployments"

// TestDeploymentLifecycle creates, reads, updates, lists and deletes a deployment.
func TestDeploymentLifecycle(t *testing.T) {
	h, c := newTest(t)
	// A version whose manifest has a web app and an API executable.
	man := `{\"webapp\":{\"access\":\"ANYONE\"},\"executionApi\":{}}`
	mustCall(t, h, "PUT", contentPath, `{"files":[{"name":"appsscript","type":"JSON","source":"`+man+`"}]}`)
	mustCall(t, h, "POST", versionsPath, `{}`) // 4
	d := mustCall(t, h, "POST", deploymentsPath, `{"versionNumber":4,"description":"web"}`)
	id, _ := d["deploymentId"].(string)
	if len(id) != len(SeedDeploymentID) || id[:6] != "AKfycb" {
		t.Errorf("deploymentId: got %q; want a 56-character AKfycb… ID", id)
	}
	wantEntries := fmt.Sprintf(`[{"entryPointType":"WEB_APP","webApp":{"entryPointConfig":{"access":"ANYONE","executeAs":"USER_DEPLOYING"},"url":"https://script.google.com/macros/s/%s/exec"}},{"entryPointType":"EXECUTION_API","executionApi":{"entryPointConfig":{"access":"MYSELF"}}}]`, id)
	if got := js(d["entryPoints"]); got != wantEntries {
		t.Errorf("entry points: got %s; want %s", got, wantEntries)
	}
	if got := js(d["deploymentConfig"]); got != `{"description":"web","manifestFileName":"appsscript","scriptId":"`+SeedScriptID+`","versionNumber":4}` {
		t.Errorf("config: got %s", got)
	}
	if got := mustCall(t, h, "GET", deploymentsPath+"/"+id, ""); js(got) != js(d) {
		t.Errorf("get: got %s; want %s", js(got), js(d))
	}
	c.set(t, "2026-11-22T10:00:00Z")
	u := mustCall(t, h, "PUT", deploymentsPath+"/"+id, `{"deploymentConfig":{"versionNumber":2}}`)
	if got := js(u["entryPoints"]); got != `[{"addOn":{"addOnType":"MAIL","postInstallTipUrl":"","title":"Invoice mailer"},"entryPointType":"ADD_ON"},{"entryPointType":"EXECUTION_API","executionApi":{"entryPointConfig":{"access":"MYSELF"}}}]` &&
		got != `[{"entryPointType":"EXECUTION_API","executionApi":{"entryPointConfig":{"access":"MYSELF"}}},{"addOn":{"addOnType":"MAIL","postInstallTipUrl":"","title":"Invoice mailer"},"entryPointType":"ADD_ON"}]` {
		t.Errorf("updated entry points: got %s", got)
	}
	if got := fmt.Sprintf("%v %v %v %v", get(u, "deploymentConfig", "versionNumber"), get(u, "deploymentConfig", "description"), u["updateTime"], u["deploymentId"] == id); got != "2 <nil> 2026-11-22T10:00:00.000Z true" {
		t.Errorf("updated: got %s", got)
	}
	list := mustCall(t, h, "GET", deploymentsPath, "")
	if n := len(list["deployments"].([]any)); n != 4 {
		t.Errorf("list: got %d deployments; want 4", n)
	}
	if got := mustCall(t, h, "DELETE", deploymentsPath+"/"+id, ""); len(got) != 0 {
		t.Errorf("delete: got %s; want {}", js(got))
	}
	if code, _ := call(t, h, "GET", deploymentsPath+"/"+id, ""); code != 404 {
		t.Errorf("get after delete: got %d; want 404", code)
	}
	if code, _ := call(t, h, "DELETE", deploymentsPath+"/"+id, ""); code != 404 {
		t.Errorf("delete twice: got %d; want 404", code)
	}
	if code, _ := call(t, h, "GET", versionsPath+"/4", ""); code != 200 {
		t.Errorf("version after delete: got %d; want 200 (kept)", code)
	}
}

// TestDeploymentErrors checks HEAD protection and configuration errors.
func TestDeploymentErrors(t *testing.T) {
	h, _ := newTest(t)
	head := deploymentsPath + "/" + SeedHeadDeploymentID
	tests := []struct {
		method, path, body string
		wantCode           int
		wantField          any
	}{
		{"PUT", head, `{"deploymentConfig":{"versionNumber":3}}`, 400, "deploymentId"},
		{"DELETE", head, "", 400, "deploymentId"},
		{"POST", deploymentsPath, `{}`, 400, "versionNumber"},
		{"POST", deploymentsPath, `{"versionNumber":9}`, 400, "versionNumber"},
		{"POST", deploymentsPath, `{"versionNumber":1,"manifestFileName":"other"}`, 400, "manifestFileName"},
		{"POST", deploymentsPath, `{"versionNumber":1,"scriptId":"1other"}`, 400, "scriptId"},
		{"POST", deploymentsPath, `{"versionNumber":"one"}`, 400, "versionNumber"},
		{"POST", deploymentsPath, `{"deploymentConfig":{"versionNumber":1}}`, 400, nil},
		{"PUT", deploymentsPath + "/" + SeedDeploymentID, `{}`, 400, "deploymentConfig"},
		{"PUT", deploymentsPath + "/" + SeedDeploymentID, `{"deploymentConfig":{"versionNumber":7}}`, 400, "deploymentConfig.versionNumber"},
		{"PUT", deploymentsPath + "/" + SeedDeploymentID, `{"versionNumber":2}`, 400, nil},
		{"PUT", deploymentsPath + "/AKfycbNope", `{"deploymentConfig":{"versionNumber":1}}`, 404, nil},
		{"GET", deploymentsPath + "/AKfycbNope", "", 404, nil},
		{"GET", "/v1/projects/nope/deployments", "", 404, nil},
		{"POST", "/v1/projects/nope/deployments", `{"versionNumber":1}`, 404, nil},
		{"GET", deploymentsPath + "?pageToken=" + deploymentToken("AKfycbNope"), "", 400, "pageToken"},
		{"GET", deploymentsPath + "?pageToken=" + versionToken(1), "", 400, "pageToken"},
		{"GET", deploymentsPath + "?pageToken=!!", "", 400, "pageToken"},
	}
	for _, tt := range tests {
		code, v := call(t, h, tt.method, tt.path, tt.body)
		if code != tt.wantCode {
			t.Errorf("%s %s %s: got %d; want %d (%s)", tt.method, tt.path, tt.body, code, tt.wantCode, js(v))
		}
		if tt.wantField != nil {
			if got := get(v, "error", "details", 0, "fieldViolations", 0, "field"); got != tt.wantField {
				t.Errorf("%s %s %s: field got %v; want %v", tt.method, tt.path, tt.body, got, tt.wantField)
			}
		}
	}
}

// TestListDeploymentsPaging walks the seeded deployments one and two at a time.
func TestListDeploymentsPaging(t *testing.T) {
	h, _ := newTest(t)
	want := fmt.Sprint([]string{SeedHeadDeploymentID, SeedDeploymentID, SeedAddOnDeploymentID})
	for _, size := range []int{1, 2, 3, 50} {
		var got []string
		token := ""
		for i := 0; i < 5; i++ {
			path := fmt.Sprintf("%s?pageSize=%d", deploymentsPath, size)
			if token != "" {
				path += "&pageToken=" + token
			}
			p := mustCall(t, h, "GET", path, "")
			for _, d := range p["deployments"].([]any) {
				got = append(got, get(d, "deploymentId").(string))
			}
			if token, _ = p["nextPageToken"].(string); token == "" {
				break
			}
		}
		if fmt.Sprint(got) != want {
			t.Errorf("pageSize %d: got %v; want %v", size, got, want)
		}
	}
}
