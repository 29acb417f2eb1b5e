package catalog

import (
	"io/fs"
	"path"
	"reflect"
	"strings"
	"testing"

	"loupe/app/catalog"
)

// TestMemoGivesWhatCompilingGives compiles every built-in document, keeps it in a memo and
// takes it out again: got is what compiling gave, field by field, and a change to one copy is
// not in the next.
func TestMemoGivesWhatCompilingGives(t *testing.T) {
	names, err := fs.Glob(contentDir, "openapi/*.yaml")
	if err != nil || len(names) == 0 {
		t.Fatalf("no documents in content/openapi: %v", err)
	}
	for _, name := range names {
		slug := strings.TrimSuffix(path.Base(name), ".yaml")
		t.Run(slug, func(t *testing.T) {
			data, err := fs.ReadFile(contentDir, name)
			if err != nil {
				t.Fatal(err)
			}
			file := path.Join(displayRoot, name)
			want, _, err := compile(slug, file, data, false)
			if err != nil {
				t.Fatal(err)
			}
			var m documentMemo
			if _, ok := m.get(slug, file, data); ok {
				t.Fatal("an empty memo has the document")
			}
			m.put(slug, file, data, want)
			got, ok := m.get(slug, file, data)
			if !ok {
				t.Fatal("the memo does not have the document it was given")
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got an API that differs from the compiled one")
			}
			got.Operations[0].Summary = "changed by one server"
			if again, _ := m.get(slug, file, data); again.Operations[0].Summary != want.Operations[0].Summary {
				t.Errorf("got summary %q after a change to another copy; want %q", again.Operations[0].Summary, want.Operations[0].Summary)
			}
		})
	}
}

// TestMemoKeysEveryPart checks that a document is found only under its own slug, file name
// and bytes.
func TestMemoKeysEveryPart(t *testing.T) {
	var m documentMemo
	m.put("ab", "c", []byte("d"), newAPIForMemo("kept"))
	for _, tc := range []struct {
		slug, file, data string
		want             bool
	}{
		{"ab", "c", "d", true},
		{"a", "bc", "d", false},
		{"ab", "cd", "", false},
		{"ab", "c", "e", false},
		{"x", "c", "d", false},
	} {
		if _, got := m.get(tc.slug, tc.file, []byte(tc.data)); got != tc.want {
			t.Errorf("get(%q, %q, %q): got found %v; want %v", tc.slug, tc.file, tc.data, got, tc.want)
		}
	}
}

// newAPIForMemo is an API with one operation of summary.
func newAPIForMemo(summary string) catalog.API {
	return catalog.API{Slug: "ab", Operations: []catalog.Operation{{ID: "op", Summary: summary}}}
}
