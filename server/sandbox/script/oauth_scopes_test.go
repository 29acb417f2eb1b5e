package script

import (
	"io/fs"
	"maps"
	"slices"
	"testing"

	"go.yaml.in/yaml/v4"

	"loupe/content"
)

// securityDoc is the part of script.yaml that says which scopes exist and what each operation
// accepts.
type securityDoc struct {
	Paths      map[string]map[string]yaml.Node `yaml:"paths"`
	Components struct {
		SecuritySchemes struct {
			OAuth2 struct {
				Flows struct {
					AuthorizationCode struct {
						Scopes map[string]string `yaml:"scopes"`
					} `yaml:"authorizationCode"`
				} `yaml:"flows"`
			} `yaml:"oauth2"`
		} `yaml:"securitySchemes"`
	} `yaml:"components"`
}

// TestScopesMatchDocument keeps Scopes and opScopes equal to script.yaml: the 18 scopes with
// their descriptions, and for every operation the scopes its security list accepts (each
// oauth2 requirement names one; any one is enough), apiKey listed as the alternative.
func TestScopesMatchDocument(t *testing.T) {
	b, err := fs.ReadFile(content.FS, "openapi/script.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc securityDoc
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("parsing script.yaml: %v", err)
	}
	want := doc.Components.SecuritySchemes.OAuth2.Flows.AuthorizationCode.Scopes
	got := map[string]string{}
	for _, s := range Scopes {
		got[s.Name] = s.Description
	}
	if len(want) != 18 || !maps.Equal(got, want) {
		t.Errorf("Scopes got %v; want the document's %v", got, want)
	}
	seen := map[string]bool{}
	for path, item := range doc.Paths {
		for method, node := range item {
			if method == "parameters" {
				continue
			}
			var op struct {
				ID       string                `yaml:"operationId"`
				Security []map[string][]string `yaml:"security"`
			}
			if err := node.Decode(&op); err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
			seen[op.ID] = true
			var scopes []string
			apiKey := false
			for _, req := range op.Security {
				if len(req) != 1 {
					t.Errorf("%s: a requirement with %d schemes; want one each (alternatives)", op.ID, len(req))
				}
				if s, ok := req["oauth2"]; ok {
					if len(s) != 1 {
						t.Errorf("%s: an oauth2 requirement with %d scopes; want one (any one is enough)", op.ID, len(s))
					}
					scopes = append(scopes, s...)
				}
				_, isKey := req["apiKey"]
				apiKey = apiKey || isKey
			}
			if !apiKey {
				t.Errorf("%s: apiKey is not an alternative; the sandbox accepts the key on every method", op.ID)
			}
			if got := opScopes[op.ID].scopes; !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(scopes))) {
				t.Errorf("%s: opScopes got %v; want the document's %v", op.ID, got, scopes)
			}
			if opScopes[op.ID].method == "" {
				t.Errorf("%s: no RPC method name", op.ID)
			}
		}
	}
	for id := range opScopes {
		if !seen[id] {
			t.Errorf("opScopes has %s, which the document does not", id)
		}
	}
}

// TestParseScopes checks the scope parameter: known scopes in the document's order, once each.
func TestParseScopes(t *testing.T) {
	got, unknown := parseScopes("https://www.googleapis.com/auth/script.projects  https://mail.google.com/ https://www.googleapis.com/auth/script.projects")
	if want := []string{"https://mail.google.com/", "https://www.googleapis.com/auth/script.projects"}; !slices.Equal(got, want) || unknown != "" {
		t.Errorf("got %v %q; want %v", got, unknown, want)
	}
	if _, unknown := parseScopes("https://mail.google.com/ openid"); unknown != "openid" {
		t.Errorf("unknown: got %q; want openid", unknown)
	}
}
