package content

import (
	"bytes"
	"io/fs"
	"slices"
	"testing"
)

// TestPartsAreFS: each part of FS holds exactly FS's files under its root, with the same bytes.
func TestPartsAreFS(t *testing.T) {
	for _, tt := range []struct {
		name string
		part fs.FS
		root string
	}{
		{"ReportsFS", ReportsFS, "openapi/reports.yaml"},
		{"EntitiesFS", EntitiesFS, "data/entities"},
		{"DocsFS", DocsFS, "data/docs"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, want := files(t, tt.part, "."), files(t, FS, tt.root)
			if !slices.Equal(got, want) || len(got) == 0 {
				t.Fatalf("got files %q; want FS's under %s: %q", got, tt.root, want)
			}
			for _, name := range got {
				a, errA := fs.ReadFile(tt.part, name)
				b, errB := fs.ReadFile(FS, name)
				if errA != nil || errB != nil || !bytes.Equal(a, b) {
					t.Errorf("%s: got %d bytes (%v); want FS's %d bytes (%v)", name, len(a), errA, len(b), errB)
				}
			}
		})
	}
}

// files lists the regular files of fsys under root, sorted.
func files(t *testing.T, fsys fs.FS, root string) []string {
	t.Helper()
	var out []string
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatalf("walking %s: %v", root, err)
	}
	slices.Sort(out)
	return out
}
