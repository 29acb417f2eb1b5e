package walkthrough

import (
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

// TestTheContentLoads loads content/walkthroughs: one walkthrough per API at least, each with
// a title and a description, each step bound to an operation of the catalog.
func TestTheContentLoads(t *testing.T) {
	set, err := Load(content.FS, loadCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	apis := map[string]bool{}
	for _, w := range set.List() {
		apis[w.API.Slug] = true
		if w.Title == "" || w.Description == "" {
			t.Errorf("%s: got no title or description; want both", w.File)
		}
		for _, st := range w.Workflow.Steps {
			if st.Operation == nil || w.API.Operation(st.Operation.ID) == nil {
				t.Errorf("%s: step %s is bound to no operation of %s", w.File, st.ID, w.API.Slug)
			}
		}
	}
	for _, slug := range []string{"script", "chat", "entities", "docs", "cluster", "pagination", "reports"} {
		if !apis[slug] {
			t.Errorf("no walkthrough uses %s; want one per API", slug)
		}
	}
}

// TestBadDocumentsSayWhere parses broken documents: each problem comes out as
// "file:line: /json/pointer: what is wrong", all of them at once, before anything runs.
func TestBadDocumentsSayWhere(t *testing.T) {
	cat := loadCatalog(t)
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"not-arazzo", []string{`testdata/not-arazzo.arazzo.yaml:1: not an Arazzo document: it has no arazzo field`}},
		{"not-yaml", []string{`testdata/not-yaml.arazzo.yaml:2: not an Arazzo document: it is neither YAML nor JSON`}},
		{"missing-source", []string{
			`testdata/missing-source.arazzo.yaml:7: /sourceDescriptions/0/url: source description petstore (testdata/petstore.yaml) is none of Loupe's APIs`,
			`testdata/missing-source.arazzo.yaml:13: /workflows/0/steps/0/operationId: step list: "listPets" cannot be looked up: no source description was matched`,
		}},
		{"unknown-operation", []string{
			`testdata/unknown-operation.arazzo.yaml:13: /workflows/0/steps/0/operationId: step search: "entities.find" is no operation of Entity Search API`,
		}},
		{"broken-expression", []string{
			`testdata/broken-expression.arazzo.yaml:17: /workflows/0/steps/0/parameters/0/value: "$inputz.query" is not a runtime expression`,
			`testdata/broken-expression.arazzo.yaml:27: /workflows/0/steps/1/parameters/0/value: $steps.search.outputs.identifier reaches nothing: step search declares no output identifier`,
			`testdata/broken-expression.arazzo.yaml:29: /workflows/0/steps/1/successCriteria/0/condition: $steps.later.outputs.x reaches nothing: workflow broken has no step later`,
		}},
		{"goto-cycle", []string{
			`testdata/goto-cycle.arazzo.yaml:18: /workflows/0/steps/1: steps first → second → first go round forever while they succeed`,
			`testdata/goto-cycle.arazzo.yaml:31: /workflows/0/steps/2/onSuccess/0: action nowhere: stepId "fourth": workflow loop has no such step`,
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			name := "testdata/" + tc.file + ".arazzo.yaml"
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Parse(name, data, cat, Sources{})
			if err == nil {
				t.Fatal("got no error; want one")
			}
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("got\n%v\nwant it to contain\n%s", err, want)
				}
			}
		})
	}
}

// TestInputs checks the inputs a run is given: types, missing and unknown names.
func TestInputs(t *testing.T) {
	data, err := os.ReadFile("testdata/required-input.arazzo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	w, err := Parse("testdata/required-input.arazzo.yaml", data, loadCatalog(t), Sources{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		given map[string]string
		want  string // the values, or the error
	}{
		{"what is not given is left to the defaults", map[string]string{"query": "paris"}, "map[query:paris]"},
		{"a value is typed", map[string]string{"query": "x", "limit": "7"}, "map[limit:7 query:x]"},
		{"a missing required input", nil, "walkthrough required-input: input query: required (the text to search for): give it a value"},
		{"an unknown input", map[string]string{"query": "x", "lang": "fr"}, "walkthrough required-input: input lang: unknown; workflow needsQuery takes query, limit"},
		{"a value of the wrong type", map[string]string{"query": "x", "limit": "many"}, `walkthrough required-input: input limit: "many" is not an integer`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vals, err := w.Values(w.Workflow, tc.given)
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				got = values(vals)
				got = "map[" + strings.ReplaceAll(strings.ReplaceAll(got, "  ", " "), "=", ":") + "]"
			}
			if got != tc.want {
				t.Errorf("got %s; want %s", got, tc.want)
			}
		})
	}
}

// TestARenamedWalkthroughKeepsItsOldID: the pagination walkthrough walked the cursor list as
// pagination-walk-a-cursor-list; that id still finds it, and an alias that names another
// walkthrough is refused.
func TestARenamedWalkthroughKeepsItsOldID(t *testing.T) {
	cat := loadCatalog(t)
	set, err := Load(content.FS, cat)
	if err != nil {
		t.Fatal(err)
	}
	if w := set.Get("pagination-walk-a-cursor-list"); w == nil || w.ID != "pagination-walk-a-list" {
		t.Fatalf("got %v; want the old id to find pagination-walk-a-list", w)
	}
	cw, err := CompileOne(set.Get("pagination-walk-a-list"))
	if err != nil || len(cw.Aliases) != 1 || cw.Aliases[0] != "pagination-walk-a-cursor-list" {
		t.Errorf("compiled: got aliases %v (%v); want the old id", cw.Aliases, err)
	}
	doc := func(alias string) File {
		return File{Name: "walkthroughs/" + alias + "-doc.arazzo.yaml", Data: []byte(`arazzo: 1.0.1
info: {title: T, version: "1", x-loupe-aliases: [` + alias + `]}
sourceDescriptions: [{name: entities, url: ../openapi/entities.yaml, type: openapi}]
workflows: [{workflowId: w, steps: [{stepId: s, operationId: entities.search}]}]
`)}
	}
	_, err = LoadFiles([]File{doc("a"), doc("a-doc")}, cat, Sources{Documents: map[string]string{"openapi/entities.yaml": "entities"}})
	if err == nil || !strings.Contains(err.Error(), "info.x-loupe-aliases: a-doc names") {
		t.Errorf("got %v; want an alias naming another walkthrough refused", err)
	}
}
