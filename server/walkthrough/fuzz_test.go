package walkthrough

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loupe/content"
	servercatalog "loupe/server/catalog"
)

// FuzzParse: any Arazzo document, such as `loupe walk FILE` or the configuration's walkthroughs
// read, is compiled into a walkthrough or refused with an error naming the file, never a panic.
func FuzzParse(f *testing.F) {
	cat, err := servercatalog.Load(content.FS)
	if err != nil {
		f.Fatal(err)
	}
	for _, dir := range []string{"../../content/walkthroughs", "testdata"} {
		names, _ := filepath.Glob(filepath.Join(dir, "*.arazzo.yaml"))
		for _, n := range names {
			b, err := os.ReadFile(n)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Add([]byte("arazzo: 1.0.1\ninfo: {title: t, version: '1'}\nsourceDescriptions: [{name: entities, url: x, type: openapi}]\nworkflows: [{workflowId: w, steps: [{stepId: s, operationId: '$sourceDescriptions.entities.nope'}]}]\n"))
	f.Add([]byte("a: &a [*a, *a]\nb: *a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := Parse("fuzz.arazzo.yaml", data, cat, Sources{})
		switch {
		case err != nil:
			if !strings.Contains(err.Error(), "fuzz.arazzo.yaml") {
				t.Fatalf("got %q; want the error to name the file", err)
			}
		case w == nil:
			t.Fatal("no walkthrough and no error")
		}
	})
}
