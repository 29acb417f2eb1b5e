package catalog

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// FuzzLoad: the catalog loader reads any document and guide without panicking, and either
// compiles them or says what is wrong, naming the file.
func FuzzLoad(f *testing.F) {
	for _, slug := range []string{"chat", "pagination", "zoo"} {
		doc, err := os.ReadFile("testdata/good/openapi/" + slug + ".yaml")
		if err != nil {
			f.Fatal(err)
		}
		guide, err := os.ReadFile("testdata/good/guides/" + slug + ".md")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(doc, guide)
	}
	f.Add([]byte("openapi: 3.1.0\npaths:\n  /x/{id}:\n    get:\n      parameters: [{$ref: '#/components/parameters/nope'}]\n"), []byte("# G\n"))
	f.Add([]byte("a: &a [*a, *a]\nb: *a\n"), []byte("<script>x</script>"))
	f.Add([]byte("openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths: {}\n"), []byte(""))
	f.Fuzz(func(t *testing.T, doc, guide []byte) {
		fsys := fstest.MapFS{
			"openapi/zoo.yaml": {Data: doc},
			"guides/zoo.md":    {Data: guide},
		}
		c, err := Load(fsys)
		switch {
		case err != nil:
			if !strings.Contains(err.Error(), "content/") {
				t.Fatalf("got %q; want the error to name the file", err)
			}
		case c == nil || len(c.APIs) != 1 || c.APIs[0].Slug != "zoo" || c.Version == "":
			t.Fatalf("got %+v with no error; want the one API, versioned", c)
		}
	})
}
