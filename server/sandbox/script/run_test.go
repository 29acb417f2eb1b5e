package script

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"loupe/server/sandbox"
)

// semanticsProject loads testdata/semantics.js and util.js as the seeded project's HEAD files,
// with the library testdata/mathlib.js (its version 1) under the symbol MathLib, on a handler
// whose runs time out after timeout. It returns the handler and the sources by file name.
func semanticsProject(t testing.TB, timeout time.Duration) (http.Handler, map[string]string) {
	t.Helper()
	c := &clock{}
	c.set(t, "2026-11-20T12:10:00Z")
	h := New(Options{Now: c.now, RunTimeout: timeout})
	src := map[string]string{}
	for _, name := range []string{"semantics", "util", "mathlib"} {
		b, err := os.ReadFile("testdata/" + name + ".js")
		if err != nil {
			t.Fatal(err)
		}
		src[name] = string(b)
	}
	lib := mustCall(t, h, "POST", "/v1/projects", `{"title":"Math library"}`)["scriptId"].(string)
	mustCall(t, h, "PUT", "/v1/projects/"+lib+"/content", `{"files":[`+manifestFile+`,{"name":"Code","type":"SERVER_JS","source":`+js(src["mathlib"])+`}]}`)
	mustCall(t, h, "POST", "/v1/projects/"+lib+"/versions", `{"description":"v1"}`)
	man := `{"timeZone":"UTC","runtimeVersion":"V8","executionApi":{"access":"MYSELF"},"dependencies":{"libraries":[{"userSymbol":"MathLib","libraryId":"` + lib + `","version":"1"}]}}`
	mustCall(t, h, "PUT", contentPath, `{"files":[{"name":"appsscript","type":"JSON","source":`+js(man)+`},`+
		`{"name":"Code","type":"SERVER_JS","source":`+js(src["semantics"])+`},{"name":"Util","type":"SERVER_JS","source":`+js(src["util"])+`}]}`)
	return h, src
}

// lineOf is the 1-based line of the first line of src containing needle.
func lineOf(t *testing.T, src, needle string) int {
	t.Helper()
	i := strings.Index(src, needle)
	if i < 0 {
		t.Fatalf("%q is not in the source", needle)
	}
	return 1 + strings.Count(src[:i], "\n")
}

// TestRunSemantics runs JavaScript through scripts.run: values, closures, recursion, JSON,
// Date, Math, try/catch, errors with their stacks, a call between files, a library call, logs,
// and an infinite loop that ends TIMED_OUT.
func TestRunSemantics(t *testing.T) {
	// 3 s: the deep recursion reaches its RangeError well within it on a loaded machine too;
	// only the infinite loop waits for it.
	h, src := semanticsProject(t, 3*time.Second)
	code, util, lib := src["semantics"], src["util"], src["mathlib"]
	ok := `{"done":true,"response":{"@type":"type.googleapis.com/google.apps.script.v1.ExecutionResponse"%s}}`
	result := func(v string) string { return sprintf(ok, `,"result":`+v) }
	fail := func(code int, msg, typ string, frames ...any) string {
		var fs []string
		for i := 0; i < len(frames); i += 2 {
			fs = append(fs, sprintf(`{"function":%s,"lineNumber":%d}`, js(frames[i]), frames[i+1]))
		}
		et := ""
		if typ != "" {
			et = sprintf(`,"errorType":%q`, typ)
		}
		st := ""
		if len(fs) > 0 {
			st = `,"scriptStackTraceElements":[` + strings.Join(fs, ",") + `]`
		}
		return sprintf(`{"done":true,"error":{"code":%d,"details":[{"@type":"type.googleapis.com/google.apps.script.v1.ExecutionError","errorMessage":%q%s%s}],"message":"ScriptError"}}`, code, msg, et, st)
	}
	tests := []struct {
		name, body, want, logs string
	}{
		{"arithmetic", `{"function":"add","parameters":[2,3]}`, result(`5`), `[]`},
		{"string concatenation", `{"function":"add","parameters":["2",3]}`, result(`"23"`), `[]`},
		{"loop over an array", `{"function":"sum","parameters":[[1,2,3,4]]}`, result(`10`), `[]`},
		{"strings", `{"function":"shout","parameters":["hey"]}`, result(`"HEY!23"`), `[]`},
		{"arrays", `{"function":"evens","parameters":[7]}`, result(`[0,20,40,60]`), `[]`},
		{"objects", `{"function":"person","parameters":["Ada",36]}`, result(`{"adult":true,"age":36,"name":"Ada","nested":{"ok":true},"tags":["a"]}`), `[]`},
		{"closures", `{"function":"counter"}`, result(`3`), `[]`},
		{"recursion", `{"function":"fib","parameters":[20]}`, result(`6765`), `[]`},
		{"JSON", `{"function":"roundTrip","parameters":[{"items":[1,{"b":null}]}]}`, result(`"2:{\"items\":[1,{\"b\":null}]}"`), `[]`},
		{"Date", `{"function":"when"}`, result(`"2026-11-20T12:05:31.204Z"`), `[]`},
		{"Math", `{"function":"maths"}`, result(`[9,-3,3.14,4]`), `[]`},
		{"try/catch/finally", `{"function":"guarded"}`, result(`"TypeError: true"`), `["finally ran"]`},
		{"no result, logs", `{"function":"nothing"}`, sprintf(ok, ``), `["no result {\"a\":1} [2]"]`},
		{"custom error", `{"function":"overQuota"}`, fail(3, "Only 3 invoices a day", "QuotaError",
			"overQuota", lineOf(t, code, "throw new QuotaError")), `[]`},
		{"TypeError", `{"function":"nullFoo"}`, fail(3, "Cannot read properties of undefined or null (reading 'foo')", "TypeError",
			"nullFoo", lineOf(t, code, "return null.foo")), `[]`},
		{"ReferenceError", `{"function":"undefinedVar"}`, fail(3, "notDefinedAnywhere is not defined", "ReferenceError",
			"undefinedVar", lineOf(t, code, "return notDefinedAnywhere")), `[]`},
		{"thrown string", `{"function":"plain"}`, fail(3, "oops", "Error", "plain", lineOf(t, code, "throw 'oops'")), `[]`},
		{"call between files", `{"function":"caller"}`, result(`43`), `[]`},
		{"library call", `{"function":"libTwice","parameters":[21]}`, result(`42`), `[]`},
		{"library function by name", `{"function":"MathLib.twice","parameters":[4]}`, result(`8`), `[]`},
		{"library stack", `{"function":"libThrow"}`, fail(3, "Cannot read properties of undefined or null (reading 'boom')", "TypeError",
			"fail", lineOf(t, lib, "private_().boom"), "libThrow", lineOf(t, code, "MathLib.fail()")), `[]`},
		{"private library function", `{"function":"MathLib.private_"}`, fail(3, "Script function not found: MathLib.private_", "ScriptError"), `[]`},
		{"stack overflow", `{"function":"deep","parameters":[0]}`, "RangeError", `[]`},
		{"a function is no result", `{"function":"giveFunction"}`, fail(3, "The script returned a function, which the Apps Script API cannot return: return a string, number, boolean, array or object.", "ScriptError"), `[]`},
		{"unknown function", `{"function":"missing"}`, fail(3, "Script function not found: missing", "ScriptError"), `[]`},
		{"infinite loop", `{"function":"forever"}`, fail(10, "Exceeded maximum execution time", "", "forever", lineOf(t, code, "function forever")), `[]`},
	}
	_ = util
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/v1/scripts/"+SeedScriptID+":run", strings.NewReader(strings.Replace(tt.body, "{", `{"devMode":true,`, 1)))
			r.Header.Set("Authorization", "Bearer "+sandbox.DefaultKey)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			got := strings.TrimSpace(w.Body.String())
			if tt.want == "RangeError" {
				if !strings.Contains(got, `"errorMessage":"Maximum call stack size exceeded","errorType":"RangeError"`) {
					t.Errorf("got %d %s; want a RangeError", w.Code, got)
				}
				return
			}
			var v any
			_ = json.Unmarshal([]byte(got), &v)
			if w.Code != 200 || js(v) != tt.want {
				t.Errorf("got %d %s\nwant 200 %s", w.Code, js(v), tt.want)
			}
			if logs := w.Header().Get(LogsHeader); logs != tt.logs {
				t.Errorf("logs: got %s; want %s", logs, tt.logs)
			}
		})
	}
	ps := mustCall(t, h, "GET", "/v1/processes:listScriptProcesses?scriptId="+SeedScriptID+"&scriptProcessFilter.functionName=forever", "")
	if got := js(get(ps, "processes", 0, "processStatus")); got != `"TIMED_OUT"` {
		t.Errorf("the infinite loop's process: got %s; want TIMED_OUT", js(ps))
	}
}

// TestRunSyntaxErrorRefused checks that updateContent refuses code that does not parse, with
// the real API's message, and keeps the previous content.
func TestRunSyntaxErrorRefused(t *testing.T) {
	h, _ := newTest(t)
	tests := []struct{ source, want string }{
		{"function f() {\n  return [1, ;\n}\n", "Syntax error: SyntaxError: Unexpected token ; line: 2 file: Code"},
		{"function f() {\n  return 'abc\n}\n", "Syntax error: SyntaxError: Invalid or unexpected token line: 2 file: Code"},
		{"function f() {\n\n  let x = 1;\n  let x = 2;\n}\n", "Syntax error: SyntaxError: Identifier 'x' has already been declared line: 4 file: Code"},
	}
	for _, tt := range tests {
		code, v := call(t, h, "PUT", contentPath, `{"files":[`+manifestFile+`,{"name":"Code","type":"SERVER_JS","source":`+js(tt.source)+`}]}`)
		if st, msg := errorOf(v); code != 400 || st != "INVALID_ARGUMENT" || msg != tt.want {
			t.Errorf("%q: got %d %s %q; want 400 INVALID_ARGUMENT %q", tt.source, code, st, msg, tt.want)
		}
	}
	got := get(mustCall(t, h, "GET", contentPath, ""), "files", 1, "source")
	if got != seedCode {
		t.Errorf("content after refused saves: got %q; want the seed's", got)
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

// durationField matches a process's duration.
var durationField = regexp.MustCompile(`"duration":"([^"]*)"`)

// TestRunRecordsProcess checks that runs show in both process lists, most recent first.
func TestRunRecordsProcess(t *testing.T) {
	h, c := newTest(t)
	c.set(t, "2026-11-21T07:00:00.25Z")
	mustCall(t, h, "POST", "/v1/scripts/"+SeedDeploymentID+":run", `{"function":"nope"}`)
	c.set(t, "2026-11-21T08:00:00Z")
	mustCall(t, h, "POST", "/v1/scripts/"+SeedDeploymentID+":run", `{"function":"sendInvoices"}`)
	want := `[{"duration":"D","functionName":"sendInvoices","processStatus":"COMPLETED","processType":"EXECUTION_API","projectName":"Invoice mailer","runtimeVersion":"V8","startTime":"2026-11-21T08:00:00.000Z","userAccessLevel":"OWNER"},` +
		`{"duration":"D","functionName":"nope","processStatus":"FAILED","processType":"EXECUTION_API","projectName":"Invoice mailer","runtimeVersion":"V8","startTime":"2026-11-21T07:00:00.250Z","userAccessLevel":"OWNER"}]`
	for _, path := range []string{
		"/v1/processes?pageSize=2",
		"/v1/processes:listScriptProcesses?pageSize=2&scriptId=" + SeedScriptID,
		"/v1/processes:listScriptProcesses?scriptId=" + SeedScriptID + "&scriptProcessFilter.deploymentId=" + SeedDeploymentID + "&scriptProcessFilter.types=EXECUTION_API&scriptProcessFilter.startTime=2026-11-21T00:00:00Z",
	} {
		got := js(mustCall(t, h, "GET", path, "")["processes"])
		for _, m := range durationField.FindAllStringSubmatch(got, -1) {
			if _, err := time.ParseDuration(m[1]); err != nil {
				t.Errorf("%s: duration %q: %v", path, m[1], err)
			}
		}
		if got = durationField.ReplaceAllString(got, `"duration":"D"`); got != want {
			t.Errorf("%s:\n got %s\nwant %s", path, got, want)
		}
	}
}
