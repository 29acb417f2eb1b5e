package docs

import (
	"encoding/json"
	"testing"

	"loupe/server/sandbox/drf"
)

// TestPagesEncodeAsTheirRecords checks that a page put together from records encoded ahead is
// byte for byte what encoding the page with its records as values writes: every list of the
// dataset, whole and empty, with links that HTML escaping would change.
func TestPagesEncodeAsTheirRecords(t *testing.T) {
	d := sharedDataset()
	values := map[string][]any{}
	for _, p := range d.projects {
		values["projects"] = append(values["projects"], p)
	}
	for _, v := range d.versions {
		values["versions"] = append(values["versions"], d.body(v))
	}
	for _, b := range d.builds {
		values["builds"] = append(values["builds"], b)
	}
	encoded := map[string][]json.RawMessage{"projects": d.projectsJSON, "versions": d.versionsJSON, "builds": d.buildsJSON}
	link := "http://127.0.0.1:8080/sandbox/docs/api/v2/build/?commit=<a>&limit=10&offset=10"
	for name, records := range encoded {
		for _, n := range []int{0, 1, len(records)} {
			got, err := drf.Marshal(page{Count: len(records), Next: &link, Results: records[:n]})
			if err != nil {
				t.Fatal(err)
			}
			plain := struct {
				Count    int     `json:"count"`
				Next     *string `json:"next"`
				Previous *string `json:"previous"`
				Results  []any   `json:"results"`
			}{Count: len(records), Next: &link, Results: append([]any{}, values[name][:n]...)}
			want, err := drf.Marshal(plain)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("%s, %d records:\ngot  %.300s\nwant %.300s", name, n, got, want)
			}
		}
	}
}
