package main

import (
	"strings"
	"testing"
)

// TestWalk runs `loupe walk` as a user does, on the built-in sandboxes: the exit status and
// what it prints.
func TestWalk(t *testing.T) {
	t.Setenv("LOUPE_CONFIG", "")
	for _, tc := range []struct {
		name       string
		args       []string
		wantCode   int
		wantOut    string
		wantStderr string
	}{
		{"a walkthrough that passes", []string{"entities-search-then-lookup", "-input", "query=berlin"}, 0,
			"PASS: 2 steps, 4 criteria held", ""},
		{"flags before the id", []string{"-input", "query=berlin", "entities-search-then-lookup"}, 0, "inputs: query=berlin", ""},
		{"a criterion that fails", []string{"entities-search-then-lookup", "-input", "query=zzzqqqxxx"}, 1,
			"FAIL: step \"search\": successCriteria[1] not satisfied", ""},
		{"an unknown walkthrough", []string{"nope"}, 2, "",
			`loupe walk: unknown walkthrough "nope"; the walkthroughs are: chat-tool-round-trip,`},
		{"an unknown input", []string{"entities-search-then-lookup", "-input", "lang=fr"}, 2, "",
			"input lang: unknown; this walkthrough takes query"},
		{"an input without a value", []string{"entities-search-then-lookup", "-input", "query"}, 2, "",
			`"query": expected name=value`},
		{"no id", nil, 2, "", "usage: loupe walk <id>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut strings.Builder
			code := walkMain(tc.args, &out, &errOut)
			if code != tc.wantCode {
				t.Errorf("got exit %d; want %d\nstdout:\n%s\nstderr:\n%s", code, tc.wantCode, out.String(), errOut.String())
			}
			if !strings.Contains(out.String(), tc.wantOut) {
				t.Errorf("got stdout\n%s\nwant it to contain %q", out.String(), tc.wantOut)
			}
			if !strings.Contains(errOut.String(), tc.wantStderr) {
				t.Errorf("got stderr\n%s\nwant it to contain %q", errOut.String(), tc.wantStderr)
			}
		})
	}
}
