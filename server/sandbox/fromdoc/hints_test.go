package fromdoc

import (
	"strings"
	"testing"
)

const hintedDoc = `openapi: 3.0.3
info: {title: Shelter, version: "1"}
x-loupe-sandbox:
  resources:
    - {collection: /animals, item: "/animals/{tag}", id: tag}
paths:
  /animals:
    get:
      operationId: listAnimals
      responses: {"200": {description: ok, content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Animal"}}}}}}
    post:
      operationId: admit
      requestBody: {content: {application/json: {schema: {$ref: "#/components/schemas/Animal"}}}}
      responses: {"201": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Animal"}}}}}
  /animals/{tag}:
    get:
      operationId: getAnimal
      parameters: [{name: tag, in: path, required: true, schema: {type: string}}]
      responses: {"200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Animal"}}}}}
  /animals/{tag}/adopt:
    post:
      operationId: adopt
      x-loupe-sandbox: {action: delete, resource: /animals}
      parameters: [{name: tag, in: path, required: true, schema: {type: string}}]
      responses: {"200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Animal"}}}}}
components:
  schemas:
    Animal:
      type: object
      required: [tag, name]
      properties:
        tag: {type: string}
        name: {type: string}
        id: {type: integer}
`

// TestHints: the document's x-loupe-sandbox names the id (tag, not the inferred id) and makes
// an action path delete; the configuration's hints win over both (listAnimals stateless).
func TestHints(t *testing.T) {
	d, err := Load("shelter", []byte(hintedDoc))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Infer(d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Resources) != 1 {
		t.Fatalf("resources: got %d; want 1", len(m.Resources))
	}
	r := m.Resources[0]
	if r.ID != "tag" || r.Source != FromDocument || r.Operations["delete"] != "adopt" || r.Operations["list"] != "listAnimals" {
		t.Errorf("resource: got id %q source %q operations %v; want id tag from the document, adopt deleting", r.ID, r.Source, r.Operations)
	}
	cfg, err := ParseHints(map[string]any{"stateless": []any{"listAnimals"}})
	if err != nil {
		t.Fatal(err)
	}
	m, err = Infer(d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Resources[0].Operations["list"]; got != "" || !strings.Contains(strings.Join(m.Stateless, ","), "listAnimals") {
		t.Errorf("with the configuration's hints: list %q, stateless %v; want listAnimals stateless", got, m.Stateless)
	}
	for _, bad := range []map[string]any{
		{"stateless": []any{"nope"}},
		{"resources": []any{map[string]any{"collection": "/cats"}}},
		{"operations": map[string]any{"adopt": map[string]any{"action": "eat"}}},
		{"colections": []any{}},
	} {
		h, err := ParseHints(bad)
		if err == nil {
			_, err = Infer(d, h)
		}
		if err == nil {
			t.Errorf("hints %v: got no error; want one", bad)
		}
	}

	// Through the sandbox: admit, then adopt removes the animal from the list.
	s, err := New(Options{Name: "shelter", Document: d})
	if err != nil {
		t.Fatal(err)
	}
	if w := call(s, "POST", "/animals", "application/json", `{"tag":"rex-1","name":"Rex"}`); w.Code != 201 {
		t.Fatalf("admit: got %d %s", w.Code, w.Body)
	}
	if w := call(s, "POST", "/animals/rex-1/adopt", "", ""); w.Code != 200 || !strings.Contains(w.Body.String(), "Rex") {
		t.Errorf("adopt: got %d %s; want 200 with Rex", w.Code, w.Body)
	}
	if w := call(s, "GET", "/animals", "", ""); strings.Contains(w.Body.String(), "rex-1") {
		t.Errorf("list after adopt: got %s; want no rex-1", w.Body)
	}
}
