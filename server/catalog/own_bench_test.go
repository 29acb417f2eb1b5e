package catalog

import (
	"encoding/json"
	"os"
	"testing"

	"loupe/app/catalog"
)

// githubDocument is GitHub's REST API description (npm @octokit/openapi, installed in e2e/ by
// make deps): over 1,000 operations, the large real-world document of the benchmarks.
const githubDocument = "../../e2e/node_modules/@octokit/openapi/generated/api.github.com.json"

// BenchmarkCatalogGitHub is the catalog build of GitHub's document as an API of your own:
// parse, build and compile (compileOwn). It reports the operations, the whole catalog's JSON
// and what /catalog.json carries of it (the index, see SlimAbove).
func BenchmarkCatalogGitHub(b *testing.B) {
	data, err := os.ReadFile(githubDocument)
	if err != nil {
		b.Fatalf("GitHub's OpenAPI document is missing (run make deps, which installs e2e/'s npm packages): %v", err)
	}
	var api catalog.API
	for b.Loop() {
		if api, _, err = compileOwn("github", githubDocument, data); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	c := &catalog.Catalog{APIs: []catalog.API{api}}
	whole, _ := json.Marshal(c)
	index, _ := json.Marshal(slim(c))
	b.ReportMetric(float64(len(api.Operations)), "operations")
	b.ReportMetric(float64(len(whole))/1e6, "MB-whole")
	b.ReportMetric(float64(len(index))/1e6, "MB-catalog.json")
}
