package script

import "testing"

// TestRunLibraryResolution checks which code a library runs: its version, or its latest saved
// content in developmentMode; and that a library that does not exist fails the run clearly.
func TestRunLibraryResolution(t *testing.T) {
	h, _ := newTest(t)
	lib := mustCall(t, h, "POST", "/v1/projects", `{"title":"Greeter"}`)["scriptId"].(string)
	save := func(id, code, man string) {
		mustCall(t, h, "PUT", "/v1/projects/"+id+"/content", `{"files":[{"name":"appsscript","type":"JSON","source":`+js(man)+`},{"name":"Code","type":"SERVER_JS","source":`+js(code)+`}]}`)
	}
	save(lib, "function hello() {\n  return 'v1';\n}\n", `{}`)
	mustCall(t, h, "POST", "/v1/projects/"+lib+"/versions", `{}`)
	save(lib, "function hello() {\n  return 'head';\n}\n", `{}`)
	uses := func(ref string) string {
		return `{"executionApi":{"access":"MYSELF"},"dependencies":{"libraries":[` + ref + `]}}`
	}
	tests := []struct{ ref, want string }{
		{`{"userSymbol":"G","libraryId":"` + lib + `","version":"1"}`, `"v1"`},
		{`{"userSymbol":"G","libraryId":"` + lib + `","version":"1","developmentMode":true}`, `"head"`},
		{`{"userSymbol":"G","libraryId":"` + lib + `","version":"7"}`, `"Library with identifier G has no version \"7\": use one of the versions of project ` + lib + `, or developmentMode."`},
		{`{"userSymbol":"G","libraryId":"1nope","version":"1"}`, `"Library with identifier G is missing (perhaps it was deleted, or maybe you don't have read access?)"`},
	}
	for _, tt := range tests {
		save(SeedScriptID, "function main() {\n  return G.hello();\n}\n", uses(tt.ref))
		out := mustCall(t, h, "POST", "/v1/scripts/"+SeedScriptID+":run", `{"function":"main","devMode":true}`)
		got := js(get(out, "response", "result"))
		if got == "null" {
			got = js(get(out, "error", "details", 0, "errorMessage"))
		}
		if got != tt.want {
			t.Errorf("%s: got %s; want %s", tt.ref, got, tt.want)
		}
	}
}
