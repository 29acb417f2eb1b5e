package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func TestCheckBase(t *testing.T) {
	for _, tc := range []struct {
		in, want, wantErr string
	}{
		{"", "/", ""},
		{"/", "/", ""},
		{"/api", "/api/", ""},
		{"/docs/api/", "/docs/api/", ""},
		{"api/", "", "must start with a slash, such as /api/"},
		{"/a/../b/", "", "plain folder name"},
		{"/a b/", "", "plain folder name"},
	} {
		got, err := CheckBase(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("CheckBase(%q): got error %v; want one saying %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("CheckBase(%q): got %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestWriteStaticRefusesBadOutputAndLeavesNothing(t *testing.T) {
	parent := t.TempDir()
	notSite := filepath.Join(parent, "notes")
	if err := os.MkdirAll(notSite, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(notSite, "todo.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(parent, "locked")
	if err := os.MkdirAll(locked, 0o555); err != nil {
		t.Fatal(err)
	}
	noModule := fstest.MapFS{"app.wasm": {Data: []byte("\x00asm")}}
	for _, tc := range []struct {
		name    string
		cfg     StaticConfig
		wantErr string
	}{
		{"a base without a leading slash", StaticConfig{Dir: filepath.Join(parent, "a"), Base: "docs/"}, "must start with a slash"},
		{"a folder with other files", StaticConfig{Dir: notSite}, "not empty and was not written by `loupe static`"},
		{"a file", StaticConfig{Dir: filepath.Join(notSite, "todo.txt")}, "is a file"},
		{"no sandbox module built", StaticConfig{Dir: filepath.Join(parent, "b"), Web: noModule}, "run `make wasm`"},
		{"an unwritable parent", StaticConfig{Dir: filepath.Join(locked, "site"), Web: fstest.MapFS{"sandboxes.wasm": {Data: []byte("x")}}}, "cannot write beside the output folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "an unwritable parent" && os.Geteuid() == 0 {
				// root writes anywhere: make the parent a file instead, which nobody can write into.
				tc.cfg.Dir = filepath.Join(notSite, "todo.txt", "site")
			}
			_, err := WriteStatic(tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) && !strings.Contains(err.Error(), "not a directory") {
				t.Fatalf("got %v; want an error saying %q", err, tc.wantErr)
			}
		})
	}
	entries, _ := os.ReadDir(parent)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "locked notes" {
		t.Errorf("the parent folder holds %q after the failures; want only what was there (locked notes)", got)
	}
	if b, _ := os.ReadFile(filepath.Join(notSite, "todo.txt")); string(b) != "mine" {
		t.Errorf("a refused folder's file changed: %q", b)
	}
}
