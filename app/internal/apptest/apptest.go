// Package apptest holds what the UI packages' tests share: a demo API to build forms from, and
// rendering a component to HTML. Only _test.go files import it (app/layout_test.go checks that),
// so none of it reaches the wasm.
package apptest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	xhtml "golang.org/x/net/html"

	"loupe/app/catalog"
)

func ptr(f float64) *float64 { return &f }

// FixtureAPI is a small API with one operation whose parameters cover each kind of field: a
// required path parameter, bounded and enum query parameters, a boolean, a repeatable list, a
// header and a JSON body.
var FixtureAPI = &catalog.API{
	Slug: "demo", Title: "Demo API", Version: "v1",
	Security: []catalog.SecurityScheme{{Name: "k", Type: "apiKey", In: "query", ParamName: "key"}},
	Operations: []catalog.Operation{{
		ID: "things.list", API: "demo", Method: "POST", Path: "/v1/{parent}/things", Viewer: catalog.ViewerJSON,
		Parameters: []catalog.Parameter{
			{Name: "parent", In: "path", Required: true, Schema: &catalog.Schema{Type: "string"}, Example: json.RawMessage(`"p/1"`)},
			{Name: "limit", In: "query", Schema: &catalog.Schema{Type: "integer", Minimum: ptr(1), Maximum: ptr(500), Default: json.RawMessage(`20`)}},
			{Name: "order", In: "query", Schema: &catalog.Schema{Type: "string", Enum: []catalog.EnumValue{
				{Value: json.RawMessage(`"asc"`), DescriptionHTML: "<p>Oldest first</p>"},
				{Value: json.RawMessage(`"desc"`), DescriptionHTML: "<p>Newest first</p>"},
			}}},
			{Name: "deep", In: "query", Schema: &catalog.Schema{Type: "boolean"}},
			{Name: "tags", In: "query", Repeatable: true, Schema: &catalog.Schema{Type: "array", Items: &catalog.Schema{Type: "string"}}},
			{Name: "X-Trace", In: "header", Schema: &catalog.Schema{Type: "string"}},
		},
		Body: &catalog.RequestBody{ContentType: "application/json", Example: json.RawMessage(`{"name":"x"}`),
			Schema: &catalog.Schema{Type: "object", Properties: []catalog.Property{{Name: "name", Required: true, Schema: &catalog.Schema{Type: "string"}}}}},
	}},
}

// RenderUI mounts a component in a test engine and returns its HTML.
func RenderUI(t *testing.T, c app.Composer) string {
	t.Helper()
	e := app.NewTestEngine()
	e.Load(c)
	e.ConsumeAll()
	return app.HTMLString(c)
}

// HasElement reports whether HTML holds an element with the given tag name.
func HasElement(src, tag string) bool {
	z := xhtml.NewTokenizer(strings.NewReader(src))
	for {
		switch z.Next() {
		case xhtml.ErrorToken:
			return false
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			if name, _ := z.TagName(); string(name) == tag {
				return true
			}
		}
	}
}
