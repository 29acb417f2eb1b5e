package main

import (
	"strings"
	"testing"
)

// TestUsage: loupe -h and loupe help name every command and every flag of the server; a
// command's help is its own; an unknown command or a stray argument exits 2 and says what the
// commands are, serving nothing.
func TestUsage(t *testing.T) {
	whole := []string{"loupe walk", "loupe static", "loupe help", "-addr", "-config", "-data", "LOUPE_"}
	for _, tc := range []struct {
		name             string
		args             []string
		wantCode         int
		wantOut, wantErr []string
		wantNoOut        bool
	}{
		{"-h", []string{"-h"}, 0, whole, nil, false},
		{"--help", []string{"--help"}, 0, whole, nil, false},
		{"help", []string{"help"}, 0, whole, nil, false},
		{"help walk", []string{"help", "walk"}, 0, []string{"usage: loupe walk <id or file>", "-workflow"}, nil, false},
		{"help static", []string{"help", "static"}, 0, []string{"usage: loupe static -o DIR", "-base", "-o", "-config"}, nil, false},
		{"walk -h", []string{"walk", "-h"}, 0, []string{"usage: loupe walk"}, nil, false},
		{"static -h", []string{"static", "-h"}, 0, []string{"usage: loupe static", "-base"}, nil, false},
		{"help of an unknown command", []string{"help", "foo"}, 2, nil, []string{`unknown command "foo"`, "walk, static and help"}, true},
		{"an unknown command", []string{"foo"}, 2, nil, []string{`loupe: unknown command "foo"`, "walk, static and help"}, true},
		{"a stray argument after the flags", []string{"-addr", "127.0.0.1:0", "serve"}, 2, nil, []string{`unexpected "serve"`}, true},
		{"an unknown flag", []string{"-port", "80"}, 2, nil, []string{"flag provided but not defined: -port", "loupe -h"}, true},
		{"static without -o", []string{"static"}, 2, nil, []string{"give the output folder with -o DIR"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut strings.Builder
			code := cli(tc.args, &out, &errOut)
			if code != tc.wantCode {
				t.Errorf("got exit %d; want %d\nstdout:\n%s\nstderr:\n%s", code, tc.wantCode, out.String(), errOut.String())
			}
			for _, w := range tc.wantOut {
				if !strings.Contains(out.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, out.String())
				}
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(errOut.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut.String())
				}
			}
			if tc.wantNoOut && out.Len() != 0 {
				t.Errorf("stdout: got %q; want nothing", out.String())
			}
		})
	}
}
