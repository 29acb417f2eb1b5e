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
			"FAIL: step search failed: a success criterion failed", ""},
		{"an unknown walkthrough", []string{"nope"}, 2, "",
			`loupe walk: unknown walkthrough "nope": neither one of the walkthroughs (chat-tool-round-trip,`},
		{"a file", []string{"../../walkthrough/testdata/required-input.arazzo.yaml", "-input", "query=rome"}, 0,
			"PASS: 1 steps, 1 criteria held", ""},
		{"a file that is not Arazzo says where, and runs nothing", []string{"../../walkthrough/testdata/goto-cycle.arazzo.yaml"}, 2, "",
			"goto-cycle.arazzo.yaml:18: /workflows/0/steps/1: steps first → second → first go round forever"},
		{"an unknown workflow", []string{"entities-search-then-lookup", "-workflow", "nope"}, 1, "",
			`walkthrough entities-search-then-lookup has no workflow "nope"; its workflows are: searchThenLookup`},
		{"an unknown input", []string{"entities-search-then-lookup", "-input", "lang=fr"}, 2, "",
			"input lang: unknown; workflow searchThenLookup takes query"},
		{"an input without a value", []string{"entities-search-then-lookup", "-input", "query"}, 2, "",
			`"query": expected name=value`},
		{"no id", nil, 2, "", "usage: loupe walk <id or file>"},
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
