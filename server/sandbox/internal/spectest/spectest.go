// Package spectest reads the OpenAPI documents of content/ in the sandboxes' tests, which
// check that each sandbox answers its document's examples exactly.
package spectest

import (
	"encoding/json"
	"io/fs"
	"testing"

	"go.yaml.in/yaml/v4"

	"loupe/content"
)

// Load parses content/openapi/<slug>.yaml into doc, a struct holding the parts the test reads.
func Load(t testing.TB, slug string, doc any) {
	t.Helper()
	b, err := fs.ReadFile(content.FS, "openapi/"+slug+".yaml")
	if err != nil {
		t.Fatalf("reading the %s document: %v", slug, err)
	}
	if err := yaml.Unmarshal(b, doc); err != nil {
		t.Fatalf("parsing the %s document: %v", slug, err)
	}
}

// Normalize round-trips v through JSON, so that a value decoded from YAML and one decoded
// from a JSON answer compare equal with reflect.DeepEqual.
func Normalize(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encoding %v: %v", v, err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
	return out
}
