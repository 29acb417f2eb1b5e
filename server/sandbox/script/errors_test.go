package script

import (
	"regexp"
	"testing"
)

// goTypeName matches what a Go type looks like in a message.
var goTypeName = regexp.MustCompile(`interface \{\}|\[\]|map\[|script\.|\*|int64|float64|struct`)

// TestErrorsSpeakTheAPI checks that a body of the wrong shape is refused in the API's words:
// what was expected and what came, never a Go type.
func TestErrorsSpeakTheAPI(t *testing.T) {
	h, _ := newTest(t)
	run := "/v1/scripts/" + SeedDeploymentID + ":run"
	tests := []struct{ method, path, body, want string }{
		{"POST", run, `{"function":"f","parameters":"x"}`, "Invalid JSON payload received. Invalid value at 'parameters': expected a list, got a string."},
		{"POST", run, `{"function":7}`, "Invalid JSON payload received. Invalid value at 'function': expected a string, got a number."},
		{"POST", run, `{"function":"f","devMode":"yes"}`, "Invalid JSON payload received. Invalid value at 'devMode': expected true or false, got a string."},
		{"POST", run, `[1]`, "Invalid JSON payload received. Invalid value at '': expected an object, got a list."},
		{"PUT", contentPath, `{"files":"x"}`, "Invalid JSON payload received. Invalid value at 'files': expected a list, got a string."},
		{"PUT", contentPath, `{"files":[{"name":1}]}`, "Invalid JSON payload received. Invalid value at 'files.name': expected a string, got a number."},
		{"PUT", contentPath, `{"files":[7]}`, "Invalid JSON payload received. Invalid value at 'files': expected an object, got a number."},
		{"POST", "/v1/projects/" + SeedScriptID + "/versions", `{"versionNumber":1.5}`, "Invalid JSON payload received. Invalid value at 'versionNumber': expected an integer, got the number 1.5."},
	}
	for _, tt := range tests {
		code, v := call(t, h, tt.method, tt.path, tt.body)
		st, msg := errorOf(v)
		if code != 400 || st != "INVALID_ARGUMENT" || msg != tt.want {
			t.Errorf("%s %s %s:\n got %d %s %q\nwant 400 INVALID_ARGUMENT %q", tt.method, tt.path, tt.body, code, st, msg, tt.want)
		}
		if goTypeName.MatchString(msg) {
			t.Errorf("%s: the message %q names a Go type", tt.body, msg)
		}
	}
}
