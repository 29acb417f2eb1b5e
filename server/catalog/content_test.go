package catalog

// Tests against the real content (content/openapi, content/guides): every document loads
// without a single error (the seed coverage tables are in coverage_test.go).

import (
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"

	"loupe/app/catalog"
)

// contentDir is the repository's content directory, as the content package embeds it.
var contentDir = os.DirFS("../../content")

var (
	contentOnce sync.Once
	contentCat  *catalog.Catalog
	contentErr  error
)

// loadContent loads the real content once for all tests.
func loadContent(t testing.TB) *catalog.Catalog {
	t.Helper()
	contentOnce.Do(func() { contentCat, contentErr = Load(contentDir) })
	if contentErr != nil {
		t.Fatalf("Load(content): %v", contentErr)
	}
	return contentCat
}

// TestContentDocumentsValid compiles each document on its own: each must parse, build and
// validate with zero errors and have its guide.
func TestContentDocumentsValid(t *testing.T) {
	names, err := fs.Glob(contentDir, "openapi/*.yaml")
	if err != nil || len(names) == 0 {
		t.Fatalf("got %d documents (err %v); want the content documents", len(names), err)
	}
	for _, name := range names {
		slug := strings.TrimSuffix(path.Base(name), ".yaml")
		t.Run(slug, func(t *testing.T) {
			if _, _, err := loadAPI(contentDir, slug); err != nil {
				t.Errorf("got errors:\n%v\nwant none", err)
			}
		})
	}
	var want []string
	for _, n := range names {
		want = append(want, strings.TrimSuffix(path.Base(n), ".yaml"))
	}
	for _, slug := range slugOrder {
		if !slices.Contains(want, slug) {
			t.Errorf("content/openapi/%s.yaml missing; want every API of the slug table", slug)
		}
	}
}

func TestContentOperationCount(t *testing.T) {
	c := loadContent(t)
	if got, want := c.Count(), 34; got < want {
		t.Errorf("got %d operations; want at least %d", got, want)
	}
	var got []string
	for _, a := range c.APIs {
		got = append(got, a.Slug)
	}
	if want := strings.Join(slugOrder, " "); strings.Join(got, " ") != want {
		t.Errorf("got APIs %v; want %s", got, want)
	}
	for _, a := range c.APIs {
		if a.GuideHTML == "" || a.Title == "" {
			t.Errorf("%s: got guide %d bytes, title %q; want both", a.Slug, len(a.GuideHTML), a.Title)
		}
	}
}

func TestContentSecurity(t *testing.T) {
	c := loadContent(t)
	tests := []struct {
		slug, typ, scheme, in, param string
	}{
		{"chat", "http", "bearer", "", ""},
		{"reports", "apiKey", "", "query", "access_token"},
		{"script", "oauth2", "", "", ""},
	}
	for _, tt := range tests {
		i := slices.IndexFunc(c.API(tt.slug).Security, func(s catalog.SecurityScheme) bool {
			return s.Type == tt.typ && s.Scheme == tt.scheme && s.In == tt.in && s.ParamName == tt.param
		})
		if i < 0 {
			t.Errorf("%s: got schemes %+v; want a %s scheme %q in %q named %q", tt.slug, c.API(tt.slug).Security, tt.typ, tt.scheme, tt.in, tt.param)
		}
	}
	var scopes []string
	for _, s := range c.API("script").Security {
		for _, f := range s.Flows {
			for _, sc := range f.Scopes {
				scopes = append(scopes, sc.Name)
			}
		}
	}
	for _, want := range []string{"script.deployments", "script.deployments.readonly", "script.metrics", "script.processes", "script.projects", "script.projects.readonly", "drive", "forms.currentonly", "userinfo.email"} {
		if !slices.ContainsFunc(scopes, func(s string) bool { return strings.HasSuffix(s, "/"+want) }) {
			t.Errorf("script: OAuth scope %q missing", want)
		}
	}
	chat := c.API("chat").Operation("createChatCompletion")
	if !chat.Streaming || chat.Viewer != catalog.ViewerChat {
		t.Errorf("chat: got streaming %v viewer %q; want true, chat", chat.Streaming, chat.Viewer)
	}
	if v := c.API("entities").Operation("entities.search").Viewer; v != catalog.ViewerJSONLD {
		t.Errorf("entities: got viewer %q; want jsonld", v)
	}
	if _, ok := c.API("reports").Operation("activities.list").Extensions["x-loupe-events"]; !ok {
		t.Errorf("reports: x-loupe-events missing from the operation's extensions")
	}
}

// BenchmarkLoad loads and compiles all the content.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := Load(contentDir); err != nil {
			b.Fatal(err)
		}
	}
}
