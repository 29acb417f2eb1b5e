package walkthrough

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/content"
	servercatalog "loupe/server/catalog"
)

func loadCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	cat, err := servercatalog.Load(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestTheContentLoads loads content/walkthroughs: one walkthrough per API at least.
func TestTheContentLoads(t *testing.T) {
	set, err := Load(content.FS, loadCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	apis := map[string]bool{}
	for _, w := range set.List() {
		apis[w.API.Slug] = true
		if w.Title == "" || w.Doc.Info.Description == "" {
			t.Errorf("%s: got no title or description; want both", w.File)
		}
	}
	for _, slug := range []string{"script", "chat", "entities", "docs", "cluster", "pagination", "reports"} {
		if !apis[slug] {
			t.Errorf("no walkthrough uses %s; want one per API", slug)
		}
	}
}

// TestBadDocumentsAreNamedByFileAndLine parses broken documents: each problem comes out as
// "file:line: what is wrong".
func TestBadDocumentsAreNamedByFileAndLine(t *testing.T) {
	cat := loadCatalog(t)
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"broken-expression", []string{
			`broken-expression.arazzo.yaml:17: step "search": parameters[0] "query": runtime expression "$inputz.query" does not parse`,
			`broken-expression.arazzo.yaml:27: step "lookup": parameters[0] "ids": local runtime-expression symbol not found: step output "identifier"`,
			`broken-expression.arazzo.yaml:29: step "lookup": successCriteria[0].condition "$steps.later.outputs.x == 1": local runtime-expression symbol not found: step "later"`,
		}},
		{"unknown-operation", []string{
			`unknown-operation.arazzo.yaml:13: step "search": operationId "entities.find" is not an operation of`,
			`unknown-operation.arazzo.yaml:17: step "again": parameters[0] "q" in "query": entities.search has no such parameter`,
		}},
		{"not-arazzo", []string{`not-arazzo.arazzo.yaml`}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			name := "testdata/" + tc.file + Suffix
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Parse(name, data, cat)
			if err == nil {
				t.Fatal("got no error; want one")
			}
			t.Logf("%v", err)
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("got %v\nwant it to contain %q", err, want)
				}
			}
		})
	}
}

// TestInputs checks the inputs a run is given: defaults, types, missing and unknown names.
func TestInputs(t *testing.T) {
	data, err := os.ReadFile("testdata/required-input" + Suffix)
	if err != nil {
		t.Fatal(err)
	}
	w, err := Parse("required-input"+Suffix, data, loadCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		given map[string]string
		want  string // the values, or the error
	}{
		{"defaults fill what is not given", map[string]string{"query": "paris"}, "map[limit:3 query:paris]"},
		{"a value is typed", map[string]string{"query": "x", "limit": "7"}, "map[limit:7 query:x]"},
		{"a missing required input", nil, "walkthrough required-input: input query: required (the text to search for): give it a value"},
		{"an unknown input", map[string]string{"query": "x", "lang": "fr"}, "walkthrough required-input: input lang: unknown; this walkthrough takes query, limit"},
		{"a value of the wrong type", map[string]string{"query": "x", "limit": "many"}, `walkthrough required-input: input limit: "many" is not an integer`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vals, err := w.Values(tc.given)
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				got = fmtMap(vals)
			}
			if got != tc.want {
				t.Errorf("got %s; want %s", got, tc.want)
			}
		})
	}
}

func fmtMap(m map[string]any) string { return fmt.Sprint(m) }
