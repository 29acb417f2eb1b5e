package op

import (
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/app/internal/apptest"
)

const jlSample = `{
  "@context": {"@vocab": "http://schema.org/", "goog": "http://schema.googleapis.com/",
    "resultScore": "goog:resultScore", "detailedDescription": "goog:detailedDescription",
    "EntitySearchResult": "goog:EntitySearchResult", "kg": "http://g.co/kg"},
  "@type": "ItemList",
  "itemListElement": [
    {"@type": "EntitySearchResult", "resultScore": 100, "result": {
      "@id": "kg:/m/1", "name": "Paris <script>alert(1)</script>", "@type": ["Thing", "City"],
      "description": "Capital of France",
      "image": {"contentUrl": "https://example.com/p.jpg", "url": "https://example.com/page", "license": "javascript:alert(1)"},
      "detailedDescription": {"articleBody": "Paris is the capital.", "url": "https://en.wikipedia.org/wiki/Paris", "license": "https://creativecommons.org/licenses/by-sa/3.0/"},
      "url": "https://paris.fr/"}},
    {"@type": "EntitySearchResult", "resultScore": 25, "result": {"@id": "kg:/m/2", "name": "Lyon", "@type": ["City"]}}
  ]
}`

func renderViewer(t *testing.T, v *jsonldViewer) string {
	t.Helper()
	return apptest.RenderUI(t, v)
}

func TestJSONLDViewerCards(t *testing.T) {
	viewer := bodyViewers[catalog.ViewerJSONLD]
	if viewer == nil {
		t.Fatal("no JSON-LD viewer registered")
	}
	v := viewer(&catalog.Operation{}, 200, []byte(jlSample)).(*jsonldViewer)
	out := renderViewer(t, v)
	tests := []struct {
		name string
		got  bool
		want bool
	}{
		{"two cards", strings.Count(out, `class="entity-card"`) == 2, true},
		{"the name is text", strings.Contains(out, "Paris &lt;script&gt;"), true},
		{"no script element", apptest.HasElement(out, "script"), false},
		{"types as chips", strings.Contains(out, ">City</span>"), true},
		{"chip titles are full IRIs", strings.Contains(out, `http://schema.org/City`), true},
		{"a javascript: license is no link", strings.Contains(out, "javascript:"), false},
		{"links are noopener noreferrer", strings.Contains(out, `noopener noreferrer`), true},
		{"the second score is a quarter of the top", strings.Contains(out, "25.0%"), true},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v; want %v\n%s", tt.name, tt.got, tt.want, out)
		}
	}
}

func TestJSONLDViewerExpanded(t *testing.T) {
	v := newJSONLDViewer([]byte(jlSample))
	v.mode = "expanded"
	out := strings.ReplaceAll(renderViewer(t, v), "<wbr>", "") // an IRI may wrap between its parts
	for _, want := range []string{"http://schema.googleapis.com/resultScore", "http://g.co/kg/m/1", "http://schema.org/itemListElement"} {
		if !strings.Contains(out, want) {
			t.Errorf("got no %q in the expanded view", want)
		}
	}
}

func TestJSONLDViewerNotJSONLD(t *testing.T) {
	out := renderViewer(t, newJSONLDViewer([]byte("not json")))
	if !strings.Contains(out, "not a JSON-LD document") {
		t.Errorf("got %s; want an explanation", out)
	}
}
