package script

import (
	"testing"
)

// TestSharedReadOnly checks the project shared read-only with the caller: reads and runs work,
// changes and devMode answer 403 PERMISSION_DENIED.
func TestSharedReadOnly(t *testing.T) {
	h, _ := newTest(t)
	const p = "/v1/projects/" + SharedScriptID
	const run = "/v1/scripts/" + SharedDeploymentID + ":run"
	tests := []struct {
		method, path, body string
		wantCode           int
	}{
		{"GET", p, "", 200},
		{"GET", p + "/content", "", 200},
		{"GET", p + "/versions", "", 200},
		{"GET", p + "/deployments/" + SharedDeploymentID, "", 200},
		{"GET", p + "/metrics?metricsGranularity=WEEKLY", "", 200},
		{"PUT", p + "/content", `{"files":[` + manifestFile + `]}`, 403},
		{"POST", p + "/versions", `{}`, 403},
		{"POST", p + "/deployments", `{"versionNumber":1}`, 403},
		{"PUT", p + "/deployments/" + SharedDeploymentID, `{"deploymentConfig":{"versionNumber":1}}`, 403},
		{"DELETE", p + "/deployments/" + SharedDeploymentID, "", 403},
		{"POST", run, `{"function":"weeklyTotals","devMode":true}`, 403},
		{"POST", run, `{"function":"weeklyTotals","parameters":["ops"]}`, 200},
	}
	for _, tt := range tests {
		code, v := call(t, h, tt.method, tt.path, tt.body)
		if code != tt.wantCode {
			t.Errorf("%s %s: got %d; want %d (%s)", tt.method, tt.path, code, tt.wantCode, js(v))
		}
		if st, _ := errorOf(v); tt.wantCode == 403 && st != "PERMISSION_DENIED" {
			t.Errorf("%s %s: status got %q; want PERMISSION_DENIED", tt.method, tt.path, st)
		}
	}
	out := mustCall(t, h, "POST", run, `{"function":"weeklyTotals","parameters":["ops"]}`)
	if got, want := js(get(out, "response", "result")), `{"hours":152,"team":"ops"}`; got != want {
		t.Errorf("run: got %s; want %s", got, want)
	}
	ps := mustCall(t, h, "GET", "/v1/processes?userProcessFilter.scriptId="+SharedScriptID, "")
	if got := js(get(ps, "processes", 0, "userAccessLevel")) + js(get(ps, "processes", 0, "projectName")); got != `"READ""Team timesheets"` {
		t.Errorf("process: got %s; want READ Team timesheets", js(ps))
	}
}
