package catalog

import (
	"os"
	"strings"
	"testing"
)

// TestSwagger2Converted: a Swagger 2.0 document loads as OpenAPI 3.0, its form data a request
// body with its file, its body parameter a JSON body, its definitions shared schemas, its
// security definitions schemes, and the API says it was converted.
func TestSwagger2Converted(t *testing.T) {
	data, err := os.ReadFile("../testdata/petstore-swagger-2.0.yaml")
	if err != nil {
		t.Fatal(err)
	}
	api, _, err := compileOwn("pets", "petstore-swagger-2.0.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(api.Operations) != 5 || len(api.Warnings) == 0 || !strings.Contains(api.Warnings[0], "Swagger 2.0") {
		t.Fatalf("got %d operations, warnings %q; want 5 and the conversion said", len(api.Operations), api.Warnings)
	}
	upload := api.Operation("uploadFile")
	if upload == nil || upload.Body == nil || upload.Body.ContentType != "multipart/form-data" {
		t.Fatalf("uploadFile body: %+v", upload)
	}
	var file bool
	for _, p := range upload.Body.Schema.Properties {
		file = file || p.Name == "file" && p.Schema.IsFile()
	}
	if !file {
		t.Errorf("uploadFile: no file field in %+v", upload.Body.Schema.Properties)
	}
	if form := api.Operation("updatePetWithForm"); form.Body == nil || form.Body.ContentType != "application/x-www-form-urlencoded" {
		t.Errorf("updatePetWithForm body: %+v", form.Body)
	}
	if add := api.Operation("addPet"); add.Body == nil || add.Body.Schema.Ref != "Pet" || add.Body.Schema.Shared != "Pet" {
		t.Errorf("addPet body schema: %+v", add.Body)
	}
	if p := api.Operation("findPetsByStatus").Parameters[0]; p.Schema.Type != "array" || !p.Serialization().Explode {
		t.Errorf("status: %+v; want an exploded array (collectionFormat multi)", p)
	}
	var schemes []string
	for _, s := range api.Security {
		schemes = append(schemes, s.Name+":"+s.Type+":"+s.Scheme+s.In)
	}
	if got, want := strings.Join(schemes, " "), "api_key:apiKey:header basic:http:basic"; got != want {
		t.Errorf("schemes: got %s; want %s", got, want)
	}
	if got := api.Operation("loginUser").Security; len(got) != 1 || got[0].Schemes[0].Scheme != "basic" {
		t.Errorf("loginUser security: %+v", got)
	}
}
