package catalog

import (
	"strings"
	"testing"

	"loupe/app/catalog"
)

// TestCompileOwnThenAdd: documents compiled without a catalog (CompileOwn) are added after the
// built-in APIs (AddOwn) with what libopenapi built of them, and a slug the catalog already has
// is refused naming the setting.
func TestCompileOwnThenAdd(t *testing.T) {
	path := writeDoc(t, "own.yaml", okDoc)
	for _, tc := range []struct {
		name, builtIn, wantErr string
	}{
		{"added", "chat", ""},
		{"slug taken", "own", "apis.own.openapi: own is a built-in API"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			compiled, err := CompileOwn([]Own{{Slug: "own", Path: path, Key: "apis.own.openapi"}}, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			c := &catalog.Catalog{Version: "v", APIs: []catalog.API{{Slug: tc.builtIn}}}
			docs, err := AddOwn(c, compiled)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got error %v; want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			api := c.API("own")
			if api == nil || !api.Own || len(api.Operations) != 1 {
				t.Fatalf("got API %+v; want the document's one operation, marked own", api)
			}
			if c.Version == "v" {
				t.Errorf("got version %q; want one that follows the document", c.Version)
			}
			d := docs["own"]
			if string(d.Data) != okDoc || d.Built == nil || d.Built.Model == nil || d.Built.Document == nil {
				t.Errorf("got document %q built %+v; want its bytes and its built model", d.Data, d.Built)
			}
		})
	}
}
