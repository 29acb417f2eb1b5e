package catalog

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

// minimal is a valid document; cases below change one thing and expect a line.
const minimal = `openapi: 3.1.0
info:
  title: T
  version: "1"
paths:
  /a:
    get:
      operationId: getA
      summary: Get A
      responses:
        "200":
          description: ok
`

// mapFS holds one document, bad.yaml's slug being "chat", with its guide.
func mapFS(doc string) fstest.MapFS {
	return fstest.MapFS{
		"openapi/chat.yaml": {Data: []byte(doc)},
		"guides/chat.md":    {Data: []byte("# Chat\n")},
	}
}

func TestLoadErrors(t *testing.T) {
	const file = "content/openapi/chat.yaml"
	tests := []struct {
		name string
		doc  string
		want string // a line of the error text, "file:line: ..." prefix included
	}{
		{"yaml syntax", strings.Replace(minimal, "summary: Get A", "summary: [Get A", 1),
			file + ":10: YAML syntax: did not find expected ',' or ']' (while parsing a flow sequence that starts on line 9)"},
		{"yaml indentation", strings.Replace(minimal, "      summary: Get A", "     summary: Get A", 1),
			file + ":9: YAML syntax:"},
		{"missing operationId", strings.Replace(minimal, "      operationId: getA\n", "", 1),
			file + ":7: GET /a: missing operationId"},
		{"duplicate operationId", minimal + "    post:\n      operationId: getA\n      summary: Post A\n      responses:\n        \"200\":\n          description: ok\n",
			file + `:14: POST /a: duplicate operationId "getA" (first used on line 8)`},
		{"missing summary", strings.Replace(minimal, "      summary: Get A\n", "", 1),
			file + ":7: GET /a: missing summary"},
		{"no responses", strings.Replace(minimal, "      responses:\n        \"200\":\n          description: ok\n", "", 1),
			file + ":7: GET /a: no responses"},
		{"unknown viewer", strings.Replace(minimal, "      summary: Get A\n", "      summary: Get A\n      x-loupe-viewer: xml\n", 1),
			file + `:10: getA: unknown x-loupe-viewer "xml"`},
		{"paged without pagination", strings.Replace(minimal, "      summary: Get A\n", "      summary: Get A\n      x-loupe-viewer: paged\n", 1),
			file + ":10: getA: x-loupe-viewer paged needs x-loupe-pagination"},
		{"bad pagination", strings.Replace(minimal, "      summary: Get A\n", "      summary: Get A\n      x-loupe-pagination: {style: pages, results: items}\n", 1),
			file + `:10: getA: x-loupe-pagination: unknown style "pages"`},
		{"pagination typo", strings.Replace(minimal, "      summary: Get A\n", "      summary: Get A\n      x-loupe-pagination: {style: cursor, result: items}\n", 1),
			file + `:10: getA: x-loupe-pagination: json: unknown field "result"`},
		{"pagination field not in the response", strings.Replace(minimal, "      summary: Get A\n", "      summary: Get A\n      x-loupe-pagination: {style: page-token, results: items, tokenParam: pageToken}\n", 1),
			file + `:10: getA: x-loupe-pagination: no 2XX response with a schema`},
		{"pagination token not a parameter", strings.Replace(strings.Replace(minimal, "          description: ok\n", "          description: ok\n          content:\n            application/json:\n              schema: {type: object, properties: {items: {type: array}}}\n              example: {}\n", 1),
			"      summary: Get A\n", "      summary: Get A\n      x-loupe-pagination: {style: page-token, results: items, tokenParam: pageToken}\n", 1),
			file + `:10: getA: x-loupe-pagination: tokenParam "pageToken" is not a query parameter`},
		{"pagination next not in the response", strings.Replace(strings.Replace(minimal, "          description: ok\n", "          description: ok\n          content:\n            application/json:\n              schema: {type: object, properties: {items: {type: array}}}\n              example: {}\n", 1),
			"      summary: Get A\n", "      summary: Get A\n      x-loupe-pagination: {style: cursor, results: items, next: next}\n", 1),
			file + `:10: getA: x-loupe-pagination: next field "next" is not in the response schema`},
		{"bad source", strings.Replace(minimal, "      summary: Get A\n", "      summary: Get A\n      x-loupe-source: seed\n", 1),
			file + `:10: x-loupe-source must be "contract" or "public-api", not "seed"`},
		{"unknown field", strings.Replace(minimal, "      summary: Get A\n", "      summary: Get A\n      sumary: typo\n", 1),
			file + `:10: paths./a.get.sumary: unknown field "sumary"`},
		{"missing version", strings.Replace(minimal, "  version: \"1\"\n", "", 1),
			file + ":2: info: missing property 'version'"},
		{"wrong type", strings.Replace(minimal, "          description: ok\n", "          description: [ok]\n", 1),
			file + ":12: paths./a.get.responses.200.description: got array, want string"},
		{"bad parameter style", strings.Replace(minimal, "      summary: Get A\n", "      summary: Get A\n      parameters:\n        - name: q\n          in: query\n          style: weird\n          schema: {type: string}\n", 1),
			file + ":13: paths./a.get.parameters.0.style: value must be one of 'form', 'spaceDelimited', 'pipeDelimited', 'deepObject'"},
		{"duplicate parameter", strings.Replace(minimal, "      summary: Get A\n", "      summary: Get A\n      parameters:\n        - {name: q, in: query, schema: {type: string}}\n        - {name: q, in: query, schema: {type: integer}}\n", 1),
			file + `:12: query parameter "q" is listed twice`},
		{"openapi 3.0", strings.Replace(minimal, "3.1.0", "3.0.3", 1),
			file + `:1: openapi "3.0.3": Loupe reads OpenAPI 3.1 documents`},
		{"missing response example", strings.Replace(minimal, "          description: ok\n", "          description: ok\n          content:\n            application/json:\n              schema: {type: object}\n", 1),
			file + ":14: GET /a: response 200 application/json has no example"},
		{"missing body example", strings.Replace(minimal, "      responses:\n", "      requestBody:\n        content:\n          application/json:\n            schema: {type: object}\n      responses:\n", 1),
			file + ":12: GET /a: request body application/json has no example"},
		{"schema type typo", strings.Replace(minimal, "          description: ok\n", "          description: ok\n          content:\n            application/json:\n              schema:\n                type: strng\n              example: x\n", 1),
			file + `:16: unknown schema type "strng"`},
		{"example does not match its schema", strings.Replace(minimal, "          description: ok\n", "          description: ok\n          content:\n            application/json:\n              schema:\n                type: object\n                properties:\n                  n: {type: integer}\n              example:\n                n: seven\n", 1),
			file + ":20: GET /a response 200 application/json example at n: got string, want integer"},
		{"named example does not match", strings.Replace(minimal, "          description: ok\n", "          description: ok\n          content:\n            application/json:\n              schema: {type: array, maxItems: 1}\n              examples:\n                two:\n                  value: [1, 2]\n", 1),
			file + ":18: GET /a response 200 application/json example: maxItems: got 2, want 1"},
		{"bad ref", strings.Replace(minimal, "          description: ok\n", "          description: ok\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Nope'}\n", 1),
			file + ":15: "},
		{"undeclared path parameter", strings.Replace(minimal, "  /a:", "  /a/{id}:", 1),
			file + ":7: /a/{id}: {id} has no path parameter"},
		{"enum description typo", strings.Replace(minimal, "          description: ok\n", "          description: ok\n          content:\n            application/json:\n              schema:\n                type: string\n                enum: [red, green]\n                x-enumDescriptions:\n                  red: Bad.\n                  gren: Good.\n", 1),
			file + `:20: x-enumDescriptions: "gren" is not a value of the enum`},
		{"unknown security scheme", strings.Replace(minimal, "      summary: Get A\n", "      summary: Get A\n      security:\n        - key: []\n", 1),
			file + `:11: getA: security requirement names unknown scheme "key"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(mapFS(tt.doc))
			if err == nil {
				t.Fatalf("got no error; want %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error\n%v\nwant a line starting %q", err, tt.want)
			}
			var e *Error
			if !errors.As(err, &e) || e.File != file || e.Line == 0 {
				t.Errorf("got %#v; want an *Error naming %s and a line", e, file)
			}
		})
	}
}

func TestLoadMissingGuide(t *testing.T) {
	fsys := mapFS(minimal)
	delete(fsys, "guides/chat.md")
	_, err := Load(fsys)
	if got, want := errString(err), "content/guides/chat.md: missing guide"; !strings.Contains(got, want) {
		t.Errorf("got %q; want it to contain %q", got, want)
	}
}

func TestLoadNoDocuments(t *testing.T) {
	if _, err := Load(fstest.MapFS{}); err == nil {
		t.Error("got no error for an empty content directory; want one")
	}
}

// TestLoadReportsEveryProblem checks that one load lists all problems, sorted by line.
func TestLoadReportsEveryProblem(t *testing.T) {
	doc := strings.Replace(minimal, "      operationId: getA\n      summary: Get A\n", "", 1)
	_, err := Load(mapFS(doc))
	got := errString(err)
	want := "content/openapi/chat.yaml:7: GET /a: missing operationId\ncontent/openapi/chat.yaml:7: GET /a: missing summary"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
