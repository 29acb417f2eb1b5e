package walkthrough_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"loupe/app/catalog"
)

// TestADocumentTheRequestCarriesIsCheckedWhereItIsWrong posts broken documents to
// /walkthroughs/check and /walkthroughs/run, as the browser's "Run a walkthrough file" does:
// each problem comes back at its line and JSON pointer, and the run sends nothing.
func TestADocumentTheRequestCarriesIsCheckedWhereItIsWrong(t *testing.T) {
	_, base := startServer(t)
	for _, tc := range []struct {
		file string
		want []catalog.WalkProblem // Message is a prefix
	}{
		{"not-arazzo", []catalog.WalkProblem{{Line: 1, Message: "not an Arazzo document: it has no arazzo field"}}},
		{"unknown-operation", []catalog.WalkProblem{{Line: 13, Pointer: "/workflows/0/steps/0/operationId", Message: `step search: "entities.find" is no operation of Entity Search API`}}},
		{"unknown-operation-path", []catalog.WalkProblem{{Line: 13, Pointer: "/workflows/0/steps/0/operationPath", Message: `step search: "{$sourceDescriptions.entities.url}#/paths/~1v1~1entities:search/post" is no operation: Entity Search API has no POST /v1/entities:search`}}},
		{"goto-cycle", []catalog.WalkProblem{
			{Line: 18, Pointer: "/workflows/0/steps/1", Message: "steps first → second → first go round forever while they succeed"},
			{Line: 31, Pointer: "/workflows/0/steps/2/onSuccess/0", Message: `action nowhere: stepId "fourth": workflow loop has no such step`},
		}},
		{"broken-expression", []catalog.WalkProblem{
			{Line: 17, Pointer: "/workflows/0/steps/0/parameters/0/value", Message: `"$inputz.query" is not a runtime expression`},
			{Line: 27, Pointer: "/workflows/0/steps/1/parameters/0/value", Message: "$steps.search.outputs.identifier reaches nothing"},
			{Line: 29, Pointer: "/workflows/0/steps/1/successCriteria/0/condition", Message: "$steps.later.outputs.x reaches nothing"},
		}},
		{"missing-source", []catalog.WalkProblem{{Line: 7, Pointer: "/sourceDescriptions/0/url", Message: "source description petstore (walkthroughs/petstore.yaml) is none of Loupe's APIs"}}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile("testdata/" + tc.file + ".arazzo.yaml")
			if err != nil {
				t.Fatal(err)
			}
			var check catalog.WalkCheckAnswer
			postJSON(t, base+"/walkthroughs/check", catalog.WalkCheckRequest{Document: string(data), Name: tc.file + ".arazzo.yaml"}, &check)
			_, run := postRun(t, base+"/walkthroughs/run", catalog.WalkRunRequest{Document: string(data), Name: tc.file + ".arazzo.yaml"})
			if check.Walkthrough != nil || run.Call != nil || run.State != nil || !strings.Contains(run.Error, "does not load") {
				t.Errorf("got a walkthrough %v, a call %v, error %q; want the document refused, nothing to send", check.Walkthrough, run.Call, run.Error)
			}
			for _, got := range [][]catalog.WalkProblem{check.Problems, run.Problems} {
				if len(got) < len(tc.want) {
					t.Fatalf("got problems %+v; want %+v", got, tc.want)
				}
				for i, w := range tc.want {
					if g := got[i]; g.Line != w.Line || g.Pointer != w.Pointer || !strings.HasPrefix(g.Message, w.Message) {
						t.Errorf("problem %d: got %+v; want line %d, pointer %q, message %q…", i, g, w.Line, w.Pointer, w.Message)
					}
				}
			}
		})
	}
}

// entitiesAt is a walkthrough whose source description names the server's own
// /openapi/entities.yaml by URL, under a name that is no API's slug.
const entitiesAt = `arazzo: 1.0.1
info: {title: Search by URL, version: 1.0.0}
sourceDescriptions:
  - name: kg
    url: %s/openapi/entities.yaml
    type: openapi
workflows:
  - workflowId: find
    inputs: {type: object, properties: {q: {type: string, default: paris}}}
    steps:
      - stepId: search
        operationPath: '{$sourceDescriptions.kg.url}#/paths/~1v1~1entities:search/get'
        parameters:
          - {name: query, in: query, value: $inputs.q}
          - {name: limit, in: query, value: 1}
        successCriteria:
          - condition: $statusCode == 200
        outputs:
          name: $response.body#/itemListElement/0/result/name
    outputs:
      name: $steps.search.outputs.name
`

// TestADocumentTheRequestCarriesRuns checks and runs a document that is in no catalog: its
// source is matched by the URL of the page's server, and the run goes to its end.
func TestADocumentTheRequestCarriesRuns(t *testing.T) {
	_, base := startServer(t)
	doc := fmt.Sprintf(entitiesAt, base)
	var check catalog.WalkCheckAnswer
	postJSON(t, base+"/walkthroughs/check", catalog.WalkCheckRequest{Document: doc, Name: "by-url.arazzo.yaml", Origin: base}, &check)
	w := check.Walkthrough
	if len(check.Problems) > 0 || w == nil || w.ID != "by-url" || w.API != "entities" || len(w.Workflows) != 1 ||
		w.Workflows[0].Steps[0].API != "entities" || w.Workflows[0].Inputs[0].Default != "paris" {
		t.Fatalf("got problems %+v and walkthrough %+v; want it compiled, its source found by URL", check.Problems, w)
	}
	ans, trace := browse(t, base, "/walkthroughs/run", catalog.WalkRunRequest{Document: doc, Name: "by-url.arazzo.yaml", Origin: base, Inputs: map[string]string{"q": "ada"}})
	if !ans.OK || strings.Join(trace, " ") != "search:next" || !strings.Contains(string(ans.Outputs["name"]), "Ada") {
		t.Errorf("got ok %v, steps %v, outputs %s; want the search to find Ada", ans.OK, trace, ans.Outputs)
	}
	// Without the page's origin, the source is none of Loupe's.
	postJSON(t, base+"/walkthroughs/check", catalog.WalkCheckRequest{Document: doc, Name: "by-url.arazzo.yaml"}, &check)
	if len(check.Problems) == 0 || check.Problems[0].Pointer != "/sourceDescriptions/0/url" {
		t.Errorf("got %+v; want the source's url refused without the origin", check.Problems)
	}
}
