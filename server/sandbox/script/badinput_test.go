package script

import (
	"strings"
	"testing"
)

// badInputCode is the project of the bad input table: a property written beside a spreadsheet
// too large for the sandbox.
const badInputCode = `function ok() {
  return PropertiesService.getScriptProperties().getProperty('flag');
}
function tooBig() {
  PropertiesService.getScriptProperties().setProperty('flag', 'set');
  SpreadsheetApp.create('big').getSheets()[0].getRange(1, 1, 1000, 26).setValue('x'.repeat(100));
}
`

// TestBadInput sends what a user gets wrong and checks that each answer is the real API's
// error shape, and that nothing was saved half-way: the content, versions, deployments and
// processes are what they were, and a run whose writes break the sandbox's bounds keeps none.
func TestBadInput(t *testing.T) {
	h, _ := newTest(t)
	mustCall(t, h, "PUT", contentPath, `{"files":[`+manifestFile+`,{"name":"Code","type":"SERVER_JS","source":`+js(badInputCode)+`}]}`)
	const p = "/v1/projects/" + SeedScriptID
	const run = "/v1/scripts/" + SeedScriptID + ":run"
	snapshot := func() string {
		return js(mustCall(t, h, "GET", p+"/content", "")) + js(mustCall(t, h, "GET", p+"/versions", "")) +
			js(mustCall(t, h, "GET", p+"/deployments", "")) + js(mustCall(t, h, "GET", "/v1/processes?pageSize=50", ""))
	}
	tests := []struct {
		name, method, path, body string
		code                     int
		status, message          string // the Google error's status and part of its message
	}{
		{"code that does not parse", "PUT", p + "/content", `{"files":[` + manifestFile + `,{"name":"Code","type":"SERVER_JS","source":"function f( {"}]}`,
			400, "INVALID_ARGUMENT", "Syntax error: SyntaxError: Unexpected end of input line: 1 file: Code"},
		{"parameters not a list", "POST", run, `{"function":"ok","parameters":"x","devMode":true}`,
			400, "INVALID_ARGUMENT", "Invalid value at 'parameters': expected a list, got a string"},
		{"function not a string", "POST", run, `{"function":7}`, 400, "INVALID_ARGUMENT", "Invalid value at 'function'"},
		{"no function", "POST", run, `{"devMode":true}`, 400, "INVALID_ARGUMENT", "The function to run is required."},
		{"unknown field", "POST", run, `{"function":"ok","params":[]}`, 400, "INVALID_ARGUMENT", `Unknown name "params"`},
		{"deployment of a missing version", "POST", p + "/deployments", `{"versionNumber":99}`,
			400, "INVALID_ARGUMENT", "The version 99 does not exist."},
		{"deployment moved to a missing version", "PUT", p + "/deployments/" + SeedDeploymentID, `{"deploymentConfig":{"versionNumber":99}}`,
			400, "INVALID_ARGUMENT", "The version 99 does not exist."},
		{"a missing version", "GET", p + "/versions/99", "", 404, "NOT_FOUND", "Requested entity was not found."},
		{"run of a missing deployment", "POST", "/v1/scripts/AKfycbNope:run", `{"function":"ok"}`, 404, "NOT_FOUND", "Requested entity was not found."},
	}
	before := snapshot()
	for _, tt := range tests {
		code, v := call(t, h, tt.method, tt.path, tt.body)
		st, msg := errorOf(v)
		if code != tt.code || st != tt.status || !strings.Contains(msg, tt.message) {
			t.Errorf("%s: got %d %s %q; want %d %s containing %q", tt.name, code, st, msg, tt.code, tt.status, tt.message)
		}
		if got := js(get(v, "error", "code")); got != sprintf("%d", tt.code) {
			t.Errorf("%s: the body's code is %s; want %d", tt.name, got, tt.code)
		}
	}
	if after := snapshot(); after != before {
		t.Errorf("the refused requests changed the project:\nbefore %s\n after %s", before, after)
	}

	// A function that does not exist is the run's ScriptError (HTTP 200), as in the real API.
	out := mustCall(t, h, "POST", run, `{"function":"missing","devMode":true}`)
	if got := js(get(out, "error", "details", 0)); got != `{"@type":"type.googleapis.com/google.apps.script.v1.ExecutionError","errorMessage":"Script function not found: missing","errorType":"ScriptError"}` {
		t.Errorf("a missing function: got %s", got)
	}
	// A run whose writes break the sandbox's bounds fails, and keeps none of them.
	out = mustCall(t, h, "POST", run, `{"function":"tooBig","devMode":true}`)
	if got := js(get(out, "error", "details", 0, "errorMessage")); !strings.Contains(got, "The sandbox keeps at most 2.0 MiB a document; the spreadsheet") {
		t.Errorf("writes past the bounds: got %s", js(out))
	}
	if got := js(get(mustCall(t, h, "POST", run, `{"function":"ok","devMode":true}`), "response", "result")); got != "null" {
		t.Errorf("the property written beside them: got %s; want null (not kept)", got)
	}
}
