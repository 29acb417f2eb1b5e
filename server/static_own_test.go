package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/server/config"
)

// staticSettings parses a configuration for a static build, with no environment.
func staticSettings(t *testing.T, yaml string) *config.Config {
	t.Helper()
	settings, err := config.Parse([]byte(yaml), "loupe.yaml", func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	return settings
}

// TestWriteStaticWithAPIsOfYourOwn: with a configuration, the static site holds its APIs of
// your own as the server loads them: in catalog.json (marked as answered by the sandbox built
// from the document, a base_url first among the servers), each document byte for byte at
// /openapi/<slug>.yaml where the sandbox module fetches it, the configured hints beside it, and
// a prerendered page for each of their operations.
func TestWriteStaticWithAPIsOfYourOwn(t *testing.T) {
	shelterDoc := "../e2e/testdata/shelter-3.1.yaml"
	settings := staticSettings(t, `apis:
  shelter:
    openapi: `+shelterDoc+`
    sandbox_hints:
      stateless: [shelterStats]
  pets:
    openapi: testdata/petstore-3.0.yaml
    base_url: https://pets.example.com/v2/
`)
	dir := filepath.Join(t.TempDir(), "site")
	web := builtModules()
	if _, err := WriteStatic(StaticConfig{Dir: dir, Web: web, Settings: settings}); err != nil {
		t.Fatal(err)
	}

	data, err := os.ReadFile(filepath.Join(dir, "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cat catalog.Catalog
	if err := json.Unmarshal(data, &cat); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		slug, op   string
		wantServer string
	}{
		{"shelter", "admitAnimal", "https://shelter.example.org/api"},
		{"pets", "createPet", "https://pets.example.com/v2"},
	} {
		api := cat.API(tc.slug)
		if api == nil {
			t.Fatalf("catalog.json lists no %s API", tc.slug)
		}
		if !api.Own || !api.OwnSandbox {
			t.Errorf("%s: got own %v, ownSandbox %v; want both (the site's sandbox module answers it)", tc.slug, api.Own, api.OwnSandbox)
		}
		if len(api.Servers) == 0 || api.Servers[0] != tc.wantServer {
			t.Errorf("%s: got servers %v; want %s first", tc.slug, api.Servers, tc.wantServer)
		}
		if !slices.ContainsFunc(api.Operations, func(o catalog.Operation) bool { return o.ID == tc.op }) {
			t.Errorf("%s: no operation %s in catalog.json", tc.slug, tc.op)
		}
		if _, err := os.Stat(filepath.Join(dir, tc.slug, tc.op, "index.html")); err != nil {
			t.Errorf("%s: the page of %s was not prerendered: %v", tc.slug, tc.op, err)
		}
	}
	if cat.API("entities") == nil {
		t.Error("catalog.json lost the built-in entities API")
	}

	want, err := os.ReadFile(shelterDoc)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "openapi", "shelter.yaml")); err != nil || string(got) != string(want) {
		t.Errorf("openapi/shelter.yaml: got %d bytes (%v); want the configured document's %d bytes as they are", len(got), err, len(want))
	}
	hints, err := os.ReadFile(filepath.Join(dir, "openapi", "shelter.sandbox-hints.json"))
	if got, want := string(hints), `{"stateless":["shelterStats"]}`; err != nil || got != want {
		t.Errorf("the shelter's hints: got %s (%v); want %s", got, err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "openapi", "pets.sandbox-hints.json")); err == nil {
		t.Error("pets has no hints configured, yet the site holds a hints file for it")
	}
}

// TestWriteStaticRefusesABadAPIOfYourOwn: a document or hints the sandbox cannot take fail the
// build with the setting named, and nothing is written.
func TestWriteStaticRefusesABadAPIOfYourOwn(t *testing.T) {
	web := builtModules()
	for _, tc := range []struct {
		name, yaml, wantErr string
	}{
		{"a document that does not load", "apis:\n  broken:\n    openapi: testdata/broken.yaml\n", "apis.broken.openapi"},
		{"hints with an unknown key", "apis:\n  pets:\n    openapi: testdata/petstore-3.0.yaml\n    sandbox_hints: {collections: []}\n", "apis.pets"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "site")
			_, err := WriteStatic(StaticConfig{Dir: dir, Web: web, Settings: staticSettings(t, tc.yaml)})
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("got %v; want an error naming %s", err, tc.wantErr)
			}
			if _, err := os.Stat(dir); err == nil {
				t.Errorf("the refused build wrote %s", dir)
			}
		})
	}
}
