package catalog

import (
	"os"
	"strings"
	"testing"
)

// FuzzCompileOwn: any OpenAPI document given as an API of your own (apis.<slug>.openapi, the
// entry point LoadOwn reads each file with) is compiled or refused with an error naming the
// file, never a panic.
func FuzzCompileOwn(f *testing.F) {
	for _, name := range []string{"testdata/good/openapi/zoo.yaml", "testdata/good/openapi/chat.yaml"} {
		doc, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(doc)
	}
	f.Add([]byte(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a/{b}":{"get":{"parameters":[{"name":"b","in":"path","required":true,"schema":{"$ref":"#/x"}}]}}}}`))
	f.Add([]byte("swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\n"))
	f.Add([]byte("openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /x:\n    post:\n      requestBody: {content: {multipart/form-data: {schema: {$ref: '#/components/schemas/a'}}}}\ncomponents: {schemas: {a: {$ref: '#/components/schemas/a'}}}\n"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		api, _, err := compileOwn("mine", "fuzz.yaml", doc)
		switch {
		case err != nil:
			if !strings.Contains(err.Error(), "fuzz.yaml") {
				t.Fatalf("got %q; want the error to name the file", err)
			}
		case api.Slug != "mine":
			t.Fatalf("got the API %q; want mine", api.Slug)
		}
	})
}
