package fromdoc

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAnswersFromTheDocument: examples by name and status by Prefer, values made from the
// schema that hold (formats, bounds, oneOf with its discriminator, writeOnly left out), the
// same for the same request, documented headers, and content negotiation.
func TestAnswersFromTheDocument(t *testing.T) {
	s := kindsSandbox(t)
	auth := []string{"X-Api-Key", "k", "X-Request-Id", "6f1c2f4e-8a38-4b1e-9d55-0c9a3b1f2d10", "Cookie", "region=eu"}
	tests := []struct {
		name, target string
		headers      []string
		status       int
		body         string // a substring of the answer
	}{
		{"named example", "/things/1", append([]string{"Prefer", "example=large"}, auth...), 200, `"name":"Beam"`},
		{"first example", "/things/1", append([]string{"Prefer", "dynamic=false"}, auth...), 200, `"name":"Bolt"`},
		{"status by Prefer", "/things/1", append([]string{"Prefer", "code=404"}, auth...), 404, `"message":`},
		{"xml by Accept", "/shapes", []string{"Accept", "application/xml"}, 200, `<?xml`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := call(s, "GET", tt.target, "", "", tt.headers...)
			if w.Code != tt.status || !strings.Contains(w.Body.String(), tt.body) {
				t.Errorf("got %d %s; want %d with %s", w.Code, w.Body, tt.status, tt.body)
			}
		})
	}

	// A shape is one of its kinds, with the discriminator naming it, the same on every call.
	a, b := call(s, "GET", "/shapes", "", ""), call(s, "GET", "/shapes", "", "")
	var shape map[string]any
	if err := json.Unmarshal(a.Body.Bytes(), &shape); err != nil || (shape["kind"] != "Circle" && shape["kind"] != "Square") {
		t.Errorf("shape: got %s; want a Circle or a Square", a.Body)
	}
	if a.Body.String() != b.Body.String() {
		t.Errorf("the same request answered %s, then %s; want the same", a.Body, b.Body)
	}
	if shape["kind"] == "Circle" && !(shape["radius"].(float64) > 0) || len(shape) != 2 {
		t.Errorf("shape: got %v; want its kind and its one positive measure", shape)
	}

	// A thing created: its writeOnly secret is not answered, its readOnly id is, and the
	// documented header is sent within its bounds.
	w := call(s, "POST", "/things", "application/json", `{"name":"Bolt","size":2,"secret":"s3"}`, auth[:2]...)
	var thing map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &thing); err != nil || w.Code != 201 {
		t.Fatalf("create: got %d %s", w.Code, w.Body)
	}
	if _, ok := thing["id"]; !ok || thing["name"] != "Bolt" {
		t.Errorf("create: got %v; want the thing with an id", thing)
	}
	if h := w.Header().Get("X-Rate-Remaining"); h == "" || len(h) > 3 {
		t.Errorf("X-Rate-Remaining: got %q; want a number from 0 to 100", h)
	}
}

// TestMadeValues: values made from schemas hold their constraints, and are the same for the
// same seed.
func TestMadeValues(t *testing.T) {
	d, err := Load("inline", []byte(`openapi: 3.1.0
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    All:
      type: object
      required: [email, when, day, id, code, count, price, ratio, kind, list, maybe, both]
      properties:
        email: {type: string, format: email}
        when: {type: string, format: date-time}
        day: {type: string, format: date}
        id: {type: string, format: uuid}
        code: {type: string, pattern: '^[A-Z]{3}-\d{4}$'}
        count: {type: integer, minimum: 5, maximum: 7}
        price: {type: number, multipleOf: 0.25, minimum: 1, exclusiveMaximum: 2}
        ratio: {type: number, minimum: 0, maximum: 1}
        kind: {type: string, enum: [a, b]}
        list: {type: array, minItems: 3, maxItems: 3, uniqueItems: true, items: {type: integer, minimum: 1, maximum: 9}}
        maybe: {type: [string, 'null'], maxLength: 4}
        both:
          allOf:
            - {type: object, required: [x], properties: {x: {type: integer}}}
            - {type: object, required: [y], properties: {y: {type: string, minLength: 3}}}
        firstName: {type: string}
        secret: {type: string, writeOnly: true}
`))
	if err != nil {
		t.Fatal(err)
	}
	raw := map[string]any{"$ref": "#/components/schemas/All"}
	sp := d.model.Components.Schemas.GetOrZero("All")
	v1, err := d.makeValue(raw, "#/components/schemas/All", sp, 42, Response)
	if err != nil {
		t.Fatal(err)
	}
	v2, _ := d.makeValue(raw, "#/components/schemas/All", sp, 42, Response)
	if !equalJSON(v1, v2) {
		t.Errorf("seed 42 made %v, then %v; want the same", v1, v2)
	}
	if err := d.checks.checkValue(sp, v1); err != nil {
		t.Errorf("made %v: %v", v1, err)
	}
	m := v1.(map[string]any)
	if _, ok := m["secret"]; ok {
		t.Errorf("made %v; want no writeOnly secret in an answer", m)
	}
	if e, _ := m["email"].(string); !strings.HasSuffix(e, "@example.com") || strings.Contains(e, " ") {
		t.Errorf("email: got %q; want an address at example.com", e)
	}
	if n, _ := m["firstName"].(string); n == "" || strings.Contains(n, " ") {
		t.Errorf("firstName: got %q; want a first name", n)
	}
	req, err := d.makeValue(raw, "#/components/schemas/All", sp, 42, Request)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := req.(map[string]any)["secret"]; !ok {
		t.Errorf("request: got %v; want the writeOnly secret sent", req)
	}
}
