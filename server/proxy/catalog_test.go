package proxy

import (
	"regexp"
	"testing"

	"loupe/content"
	servercatalog "loupe/server/catalog"
)

// TestEveryDocumentedPathPasses fills the path parameters of every operation of the real
// catalog and checks the guard accepts the path and the matcher names that very operation.
func TestEveryDocumentedPathPasses(t *testing.T) {
	cat, err := servercatalog.Load(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	param := regexp.MustCompile(`\{[^{}/]+\}`)
	n := 0
	for _, api := range cat.APIs {
		ops := newOperations(&api)
		for _, op := range api.Operations {
			path := param.ReplaceAllString(op.Path, "x1")
			if ref := checkRest(path); ref != nil {
				t.Errorf("%s %s: the guard refuses %s: %s", api.Slug, op.ID, path, ref.message)
			}
			m, ok := ops.match(op.Method, "", path, "", nil)
			if got := m.id; !ok || got != op.ID {
				// Another operation with the same shape may win only if it is more specific.
				t.Errorf("%s %s %s: got operation %q; want %q", api.Slug, op.Method, path, m.id, op.ID)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("the catalog has no operations")
	}
	t.Logf("%d operations pass the guard and match themselves", n)
}

// BenchmarkOperationMatch names the operation of every documented path of the real catalog,
// as each proxied call does (ns/op is per call).
func BenchmarkOperationMatch(b *testing.B) {
	cat, err := servercatalog.Load(content.FS)
	if err != nil {
		b.Fatal(err)
	}
	param := regexp.MustCompile(`\{[^{}/]+\}`)
	type call struct {
		ops          *operations
		method, path string
	}
	var calls []call
	for _, api := range cat.APIs {
		ops := newOperations(&api)
		for _, op := range api.Operations {
			calls = append(calls, call{ops, op.Method, param.ReplaceAllString(op.Path, "x1")})
		}
	}
	b.ResetTimer()
	for i := range b.N {
		c := calls[i%len(calls)]
		if _, ok := c.ops.match(c.method, "", c.path, "", nil); !ok {
			b.Fatalf("%s %s matches nothing", c.method, c.path)
		}
	}
}
