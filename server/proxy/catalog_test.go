package proxy

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
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

// TestLeadsChangeNoMatch: skipping the routes whose literal lead a path does not begin with
// names the operations that trying every route's expression names, for the paths of every
// operation of the real catalog, under the documents' server paths, with a trailing slash, with
// an escaped literal and under a base path, and for paths that match nothing.
func TestLeadsChangeNoMatch(t *testing.T) {
	cat, err := servercatalog.Load(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	param := regexp.MustCompile(`\{[^{}/]+\}`)
	n := 0
	for _, api := range cat.APIs {
		ops := newOperations(&api)
		bare := &operations{routes: slices.Clone(ops.routes), headers: ops.headers}
		for i := range bare.routes {
			bare.routes[i].lead = ""
		}
		for _, op := range api.Operations {
			path := param.ReplaceAllString(op.Path, "x1")
			paths := []string{path, path + "/", "/zz" + path, strings.Replace(path, "/", "/%7E", 1), strings.ToUpper(path)}
			for _, s := range api.Servers {
				if u, err := url.Parse(s); err == nil && trimSlash(u.Path) != "" {
					paths = append(paths, trimSlash(u.Path)+path)
				}
			}
			for _, p := range paths {
				for _, base := range []string{"", "/v9"} {
					got, gotOK := ops.match(op.Method, base, p, "", nil)
					want, wantOK := bare.match(op.Method, base, p, "", nil)
					if got.id != want.id || gotOK != wantOK {
						t.Errorf("%s %s %s (base %q): got %q %v; want %q %v", api.Slug, op.Method, p, base, got.id, gotOK, want.id, wantOK)
					}
					n++
				}
			}
		}
	}
	t.Logf("%d paths named alike", n)
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
