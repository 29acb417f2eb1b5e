package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWalkthroughsKey reads the walkthroughs key: a document or a folder of them, each source
// mapping naming an API; what is wrong is named by its key.
func TestWalkthroughsKey(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("arazzo: 1.0.1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	one := write("one.arazzo.yaml")
	write("walks/b.arazzo.json")
	write("walks/deeper/a.arazzo.yaml")
	write("walks/notes.md")
	for _, tc := range []struct {
		name      string
		yaml      string
		wantErr   string
		wantFiles []string
	}{
		{"a document", "walkthroughs:\n  - path: " + one + "\n", "", []string{one}},
		{"a folder, its subfolders too, in name order", "walkthroughs:\n  - path: " + filepath.Join(dir, "walks") + "\n    sources: {pets: docs}\n", "",
			[]string{filepath.Join(dir, "walks/b.arazzo.json"), filepath.Join(dir, "walks/deeper/a.arazzo.yaml")}},
		{"a path that does not exist", "walkthroughs:\n  - path: " + filepath.Join(dir, "nope.arazzo.yaml") + "\n", "walkthroughs[0].path: expected an Arazzo document", nil},
		{"a file that is not a walkthrough", "walkthroughs:\n  - path: " + filepath.Join(dir, "walks/notes.md") + "\n", "walkthroughs[0].path: " + filepath.Join(dir, "walks/notes.md") + ": expected a file ending .arazzo.yaml", nil},
		{"a mapping to no API", "walkthroughs:\n  - path: " + one + "\n    sources: {pets: petstore}\n", `walkthroughs[0].sources.pets: "petstore" is not an API; expected one of the apis keys: chat,`, nil},
		{"an unknown key", "walkthroughs:\n  - file: " + one + "\n", "unknown key walkthroughs[0].file; expected one of: path, sources", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(tc.yaml), "loupe.yaml", envMap(nil))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v; want an error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			files, err := c.WalkthroughFiles()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range files {
				got = append(got, f.Path)
			}
			if !slices.Equal(got, tc.wantFiles) {
				t.Errorf("got files %v; want %v", got, tc.wantFiles)
			}
			for _, f := range tc.wantFiles {
				if !slices.Contains(c.Files(), f) {
					t.Errorf("got watched files %v; want %s among them", c.Files(), f)
				}
			}
		})
	}
}
