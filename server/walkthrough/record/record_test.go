package record

import (
	"strings"
	"testing"
)

// TestRecord records exchanges and checks what becomes of each value sent: carried from the
// answer that first gave it, or kept as written.
func TestRecord(t *testing.T) {
	exs := []Exchange{
		{API: "pets", OperationID: "createPet", Method: "POST", Path: "/pets", ContentType: "application/json",
			Body: `{"name":"Rex the dog","age":3}`, Status: 201, ResponseContentType: "application/json",
			ResponseBody: `{"id":"pet-8f3a2c","name":"Rex the dog","owner":{"id":"own-77"},"count":12345}`},
		{API: "pets", OperationID: "getPet", Method: "GET", Path: "/pets/{petId}", Status: 200,
			Params:              []Param{{Name: "petId", In: "path", Values: []string{"pet-8f3a2c"}}, {Name: "limit", In: "query", Values: []string{"3"}}},
			ResponseContentType: "application/json", ResponseBody: `{"id":"pet-8f3a2c","links":{"self":"/pets/pet-8f3a2c"}}`},
		{API: "shop", OperationID: "order", Method: "POST", Path: "/orders", ContentType: "application/json",
			Body: `{"pet":"pet-8f3a2c","owner":"own-77","note":"for pet-8f3a2c","name":"Rex the dog","total":12345,"qty":1}`, Status: 200},
	}
	doc, err := Record(exs, Options{Sources: map[string]string{"pets": "https://example.com/pets.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	data, err := doc.YAML()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"url: https://example.com/pets.yaml", "url: ../openapi/shop.yaml",
		"operationPath: '{$sourceDescriptions.pets.url}#/paths/~1pets~1{petId}/get'",
		"value: $steps.s1.outputs.id",      // an id an answer gave
		"pet: $steps.s1.outputs.id",        // the first answer that gave it
		"owner: $steps.s1.outputs.id2",     // a second output named after the same member
		"note: for {$steps.s1.outputs.id}", // a long id inside a string
		"total: $steps.s1.outputs.count",   // a large number
		"name: Rex the dog",                // typed by the user, echoed by the answer: as typed
		"qty: 1", "value: \"3\"",           // small values as written
		"- condition: $statusCode == 201",
		"id: $response.body#/id", "id2: $response.body#/owner/id",
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("got\n%s\nwant it to contain %q", data, want)
		}
	}
	if _, err := Record([]Exchange{{API: "pets", Method: "GET", Path: "/pets"}}, Options{}); err == nil || !strings.Contains(err.Error(), "has no answer") {
		t.Errorf("got %v; want an unanswered request refused", err)
	}
	if _, err := Record(nil, Options{}); err == nil {
		t.Error("got no error for nothing to record")
	}
}

// TestSent reads a sent URL into its operation's parameters.
func TestSent(t *testing.T) {
	got, err := Sent("/v1/projects/{scriptId}:run", "http://h/proxy/script", "http://h/proxy/script/v1/projects/a%2Fb:run?x=1&y=2&x=3", map[string]string{"X-B": "b", "X-A": "a"})
	if err != nil {
		t.Fatal(err)
	}
	want := "[{scriptId path [a/b]} {x query [1 3]} {y query [2]} {X-A header [a]} {X-B header [b]}]"
	if s := strings.TrimSpace(strings.ReplaceAll(fmtParams(got), "  ", " ")); s != want {
		t.Errorf("got %s; want %s", s, want)
	}
	if _, err := Sent("/a/{b}", "/proxy/x", "/proxy/x/a/b/c", nil); err == nil {
		t.Error("got no error for a URL that does not follow the path")
	}
}

func fmtParams(ps []Param) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, "{"+p.Name+" "+p.In+" ["+strings.Join(p.Values, " ")+"]}")
	}
	return "[" + strings.Join(parts, " ") + "]"
}
