package script

import (
	"testing"
)

// runCode replaces the HEAD files of a new handler with code and returns how to run a
// function of it (through the script ID).
func runCode(t *testing.T, code string) func(body string) (int, any) {
	t.Helper()
	hh, _ := newTest(t)
	mustCall(t, hh, "PUT", contentPath, `{"files":[`+manifestFile+`,{"name":"Code","type":"SERVER_JS","source":`+js(code)+`}]}`)
	return func(body string) (int, any) {
		return call(t, hh, "POST", "/v1/scripts/"+SeedScriptID+":run", body)
	}
}

// TestRunEvaluator checks the interpreted statements and their answers.
func TestRunEvaluator(t *testing.T) {
	code := "function list() {\n  return ['a', \"b\\n\", 1.5, -2, true, null, {k: 'v', 'q': [false]}];\n}\n" +
		"function echo(a, b) {\n  // comment\n  /* block */ return b;\n}\n" +
		"function none() {\n}\n" +
		"function early() {\n  return;\n}\n" +
		"function other() {\n  var x = 1;\n  return x;\n}\n" +
		"function boom() {\n  throw new TypeError('bad thing');\n}\n" +
		"function plain() {\n  throw 'oops';\n}\n" +
		"function ref() {\n  return foo;\n}\n" +
		"function broken() {\n  return [1, ;\n}\n" +
		"function unclosed() {\n  return 'abc\n}\n"
	run := runCode(t, code)
	ok := `{"done":true,"response":{"@type":"type.googleapis.com/google.apps.script.v1.ExecutionResponse"%s}}`
	fail := `{"done":true,"error":{"code":3,"details":[{"@type":"type.googleapis.com/google.apps.script.v1.ExecutionError","errorMessage":%q,"errorType":%q%s}],"message":"ScriptError"}}`
	trace := func(fn string, line int) string {
		return sprintf(`,"scriptStackTraceElements":[{"function":%q,"lineNumber":%d}]`, fn, line)
	}
	tests := []struct{ body, want string }{
		{`{"function":"list","devMode":true}`, sprintf(ok, `,"result":["a","b\n",1.5,-2,true,null,{"k":"v","q":[false]}]`)},
		{`{"function":"echo","parameters":[1,{"x":[2]}],"devMode":true}`, sprintf(ok, `,"result":{"x":[2]}`)},
		{`{"function":"echo","parameters":[1],"devMode":true}`, sprintf(ok, ``)},
		{`{"function":"none","devMode":true}`, sprintf(ok, ``)},
		{`{"function":"early","devMode":true}`, sprintf(ok, ``)},
		{`{"function":"other","devMode":true}`, sprintf(ok, ``)},
		{`{"function":"boom","devMode":true}`, sprintf(fail, "bad thing", "TypeError", trace("boom", 18))},
		{`{"function":"plain","devMode":true}`, sprintf(fail, "oops", "Error", trace("plain", 21))},
		{`{"function":"ref","devMode":true}`, sprintf(fail, "foo is not defined", "ReferenceError", trace("ref", 24))},
		{`{"function":"broken","devMode":true}`, sprintf(fail, "Unexpected token", "SyntaxError", trace("broken", 27))},
		{`{"function":"unclosed","devMode":true}`, sprintf(fail, "Invalid or unexpected token", "SyntaxError", trace("unclosed", 30))},
		{`{"function":"missing","devMode":true}`, sprintf(fail, "Script function not found: missing", "ScriptError", "")},
		{`{"function":"Lib.list","devMode":true}`, sprintf(fail, "Script function not found: Lib.list", "ScriptError", "")},
	}
	for _, tt := range tests {
		code, v := run(tt.body)
		if code != 200 || js(v) != tt.want {
			t.Errorf("%s:\n got %d %s\nwant 200 %s", tt.body, code, js(v), tt.want)
		}
	}
}

// TestRunTargets checks which code runs for a deployment ID, a script ID and devMode, and the
// 4xx answers of a call that fails before running.
func TestRunTargets(t *testing.T) {
	h, _ := newTest(t)
	mustCall(t, h, "PUT", contentPath, `{"files":[`+manifestFile+`,{"name":"Code","type":"SERVER_JS","source":"function sendInvoices() {\n  return 'head';\n}\n"}]}`)
	result := `{"done":true,"response":{"@type":"type.googleapis.com/google.apps.script.v1.ExecutionResponse","result":%s}}`
	tests := []struct {
		id, body string
		wantCode int
		want     string
	}{
		{SeedDeploymentID, `{"function":"sendInvoices","parameters":["2026-11"]}`, 200, sprintf(result, `["INV-1001","INV-1002"]`)},
		{SeedDeploymentID, `{"function":"sendInvoices","devMode":true}`, 200, sprintf(result, `"head"`)},
		{SeedHeadDeploymentID, `{"function":"sendInvoices"}`, 200, sprintf(result, `"head"`)},
		{SeedScriptID, `{"function":"sendInvoices"}`, 200, sprintf(result, `["INV-1001","INV-1002"]`)},
		{SeedScriptID, `{"function":"sendInvoices","devMode":true}`, 200, sprintf(result, `"head"`)},
		{SeedAddOnDeploymentID, `{"function":"sendInvoices"}`, 404, ""},
		{"AKfycbNope", `{"function":"sendInvoices"}`, 404, ""},
		{SeedDeploymentID, `{}`, 400, ""},
		{SeedDeploymentID, `{"function":"f","params":[]}`, 400, ""},
		{SeedDeploymentID, `{"function":7}`, 400, ""},
	}
	for _, tt := range tests {
		code, v := call(t, h, "POST", "/v1/scripts/"+tt.id+":run", tt.body)
		if code != tt.wantCode || (tt.want != "" && js(v) != tt.want) {
			t.Errorf("%s %s:\n got %d %s\nwant %d %s", tt.id, tt.body, code, js(v), tt.wantCode, tt.want)
		}
	}
	// A new project has no API deployment until its manifest says executionApi and it is deployed.
	id := mustCall(t, h, "POST", "/v1/projects", `{"title":"New"}`)["scriptId"].(string)
	if code, _ := call(t, h, "POST", "/v1/scripts/"+id+":run", `{"function":"f"}`); code != 404 {
		t.Errorf("new project: got %d; want 404", code)
	}
}

// TestRunRecordsProcess checks that runs show in both process lists, most recent first.
func TestRunRecordsProcess(t *testing.T) {
	h, c := newTest(t)
	c.set(t, "2026-11-21T07:00:00.25Z")
	mustCall(t, h, "POST", "/v1/scripts/"+SeedDeploymentID+":run", `{"function":"nope"}`)
	c.set(t, "2026-11-21T08:00:00Z")
	mustCall(t, h, "POST", "/v1/scripts/"+SeedDeploymentID+":run", `{"function":"sendInvoices"}`)
	want := `[{"duration":"0.1s","functionName":"sendInvoices","processStatus":"COMPLETED","processType":"EXECUTION_API","projectName":"Invoice mailer","runtimeVersion":"V8","startTime":"2026-11-21T08:00:00.000Z","userAccessLevel":"OWNER"},` +
		`{"duration":"0.1s","functionName":"nope","processStatus":"FAILED","processType":"EXECUTION_API","projectName":"Invoice mailer","runtimeVersion":"V8","startTime":"2026-11-21T07:00:00.250Z","userAccessLevel":"OWNER"}]`
	for _, path := range []string{
		"/v1/processes?pageSize=2",
		"/v1/processes:listScriptProcesses?pageSize=2&scriptId=" + SeedScriptID,
		"/v1/processes:listScriptProcesses?scriptId=" + SeedScriptID + "&scriptProcessFilter.deploymentId=" + SeedDeploymentID + "&scriptProcessFilter.types=EXECUTION_API&scriptProcessFilter.startTime=2026-11-21T00:00:00Z",
	} {
		if got := js(mustCall(t, h, "GET", path, "")["processes"]); got != want {
			t.Errorf("%s:\n got %s\nwant %s", path, got, want)
		}
	}
}
