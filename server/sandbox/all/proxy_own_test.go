package all

import (
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/content"
)

// TestProxyBuildsAnOwnSandboxWithItsHints: the sandbox of an API of your own is built on its
// first call from the document and the hints the host returns (the static site's files), and
// says what it followed; hints that cannot be read are a 503 saying why, and no sandbox.
func TestProxyBuildsAnOwnSandboxWithItsHints(t *testing.T) {
	doc, err := os.ReadFile("../../../e2e/testdata/shelter-3.1.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cat := &catalog.Catalog{APIs: []catalog.API{{Slug: "shelter", Own: true}}}
	for _, tc := range []struct {
		name     string
		hints    func(context.Context, string) (any, error)
		want     int
		wantBody string
	}{
		{"the configured hints are followed", func(_ context.Context, slug string) (any, error) {
			return map[string]any{"stateless": []any{"shelterStats"}}, nil
		}, 200, `"from":"configuration"`},
		{"no hints file: the document's only", func(context.Context, string) (any, error) { return nil, nil }, 200, `"from":"document"`},
		{"hints that cannot be read", func(context.Context, string) (any, error) {
			return nil, errors.New("fetching /openapi/shelter.sandbox-hints.json: the site answered 500")
		}, 503, "reading its sandbox hints"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewProxy(Options{Content: content.FS, OwnHints: tc.hints,
				OwnDocument: func(context.Context, string) ([]byte, error) { return doc, nil }},
				func(context.Context) (*catalog.Catalog, error) { return cat, nil })
			if err != nil {
				t.Fatal(err)
			}
			w := httptest.NewRecorder()
			p.ServeHTTP(w, httptest.NewRequest("GET", "/proxy/shelter/_sandbox/inference", nil))
			if got := w.Code; got != tc.want || !strings.Contains(w.Body.String(), tc.wantBody) {
				t.Errorf("got %d %.300s; want %d with %s", got, w.Body.String(), tc.want, tc.wantBody)
			}
		})
	}
}
