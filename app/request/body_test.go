package request

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"strings"
	"testing"

	"loupe/app/catalog"
)

var petForm = &catalog.Schema{Type: "object", Properties: []catalog.Property{
	{Name: "name", Required: true, Schema: &catalog.Schema{Type: "string"}},
	{Name: "age", Schema: &catalog.Schema{Type: "integer"}},
	{Name: "tags", Schema: &catalog.Schema{Type: "array", Items: &catalog.Schema{Type: "string"}}},
	{Name: "metadata", Schema: &catalog.Schema{Type: "object", AdditionalProperties: &catalog.Schema{Type: "string"}}},
	{Name: "address", Schema: &catalog.Schema{Type: "object"}},
	{Name: "photo", Schema: &catalog.Schema{Type: "string", Format: "binary"}},
	{Name: "scans", Schema: &catalog.Schema{Type: "array", Items: &catalog.Schema{Type: "string", ContentMediaType: "image/png"}}},
}}

// TestURLEncoded writes a form object as application/x-www-form-urlencoded, each field as the
// encoding object says, and checks it against the schema first.
func TestURLEncoded(t *testing.T) {
	body := &catalog.RequestBody{ContentType: "application/x-www-form-urlencoded", Schema: petForm, Encoding: map[string]catalog.Encoding{
		"metadata": {Style: "deepObject", Explode: bptr(true)},
		"tags":     {Explode: bptr(false)},
		"address":  {ContentType: "application/json"},
	}}
	op := &catalog.Operation{Method: "POST", Path: "/pets", Body: body}
	req, errs := Build(op, "", State{Body: `{"name":"Rex & Co","age":3,"tags":["a","b c"],"metadata":{"k":"v","n":"2"},"address":{"city":"Oslo"}}`})
	if errs != nil {
		t.Fatal(errs)
	}
	want := "name=Rex+%26+Co&age=3&tags=a,b+c&metadata[k]=v&metadata[n]=2&address=%7B%22city%22%3A%22Oslo%22%7D"
	if got := string(req.Body); got != want {
		t.Errorf("body = %q; want %q", got, want)
	}
	if req.Headers[0].Value != "application/x-www-form-urlencoded" {
		t.Errorf("Content-Type = %q", req.Headers[0].Value)
	}
	if len(req.Form) != 6 || req.Form[0] != (Pair{"name", "Rex & Co"}) || req.Form[3] != (Pair{"metadata[k]", "v"}) {
		t.Errorf("Form = %q", req.Form)
	}
	// Exploded by default: an array repeats its name.
	body.Encoding = nil
	req, _ = Build(op, "", State{Body: `{"name":"x","tags":["a","b"]}`})
	if got, want := string(req.Body), "name=x&tags=a&tags=b"; got != want {
		t.Errorf("body = %q; want %q", got, want)
	}
	for _, tt := range []struct{ body, want string }{
		{`{"age":3}`, "body: name: missing"},
		{`{"name":"x","age":"three"}`, "body: age: must be an integer"},
		{`["x"]`, "body: not a form"},
	} {
		_, errs := Build(op, "", State{Body: tt.body})
		if len(errs) == 0 || !strings.HasPrefix(errs[0].Key+": "+errs[0].Error(), tt.want) {
			t.Errorf("%s: errors = %v; want %q", tt.body, errs, tt.want)
		}
	}
}

// TestMultipart writes a form object as multipart/form-data: fields, an object as JSON, files
// with their names and types, several files under one name, a part's documented header; the
// body reads back with Go's own multipart reader, and the same form gives the same bytes.
func TestMultipart(t *testing.T) {
	body := &catalog.RequestBody{ContentType: "multipart/form-data", Schema: petForm, Encoding: map[string]catalog.Encoding{
		"photo": {ContentType: "image/jpeg, image/png", Headers: []catalog.Parameter{{Name: "X-Rate", In: "header", Schema: &catalog.Schema{Type: "integer"}}}},
	}}
	op := &catalog.Operation{Method: "POST", Path: "/pets", Body: body}
	st := State{
		Body: `{"name":"Rex","tags":["a","b"],"address":{"city":"Oslo"},"photo":` + FileRef("rex.jpg") +
			`,"scans":[` + FileRef("1.png") + `,` + FileRef("2.png") + `]}`,
		Files: map[string]File{
			"/photo":   {Name: "rex.jpg", Type: "image/jpeg", Data: []byte("\xff\xd8jpeg")},
			"/scans/0": {Name: "1.png", Data: []byte("png one")},
			"/scans/1": {Name: "2.png", Type: "image/png", Data: []byte("png two")},
		},
		Params: map[string][]string{PartHeaderKey("photo", "X-Rate"): {"5"}},
	}
	req, errs := Build(op, "", st)
	if errs != nil {
		t.Fatal(errs)
	}
	mt, params, err := mime.ParseMediaType(req.Headers[0].Value)
	if err != nil || mt != "multipart/form-data" {
		t.Fatalf("Content-Type = %q", req.Headers[0].Value)
	}
	r := multipart.NewReader(bytes.NewReader(req.Body), params["boundary"])
	var got []string
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(p)
		got = append(got, p.FormName()+"|"+p.FileName()+"|"+p.Header.Get("Content-Type")+"|"+p.Header.Get("X-Rate")+"|"+string(data))
	}
	want := []string{"name||||Rex", "tags||||a", "tags||||b", `address||application/json||{"city":"Oslo"}`,
		"photo|rex.jpg|image/jpeg|5|\xff\xd8jpeg", "scans|1.png|image/png||png one", "scans|2.png|image/png||png two"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("parts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(req.Parts) != 7 || req.Parts[4].FileName != "rex.jpg" || req.Parts[4].Size != 6 {
		t.Errorf("Parts = %+v", req.Parts)
	}
	again, _ := Build(op, "", st.Clone())
	if !bytes.Equal(again.Body, req.Body) {
		t.Error("the same form gave another body")
	}

	// A link names the file but does not carry it: Build asks for it again, Preview sends it empty.
	st.Files = nil
	if _, errs := Build(op, "", st); len(errs) != 3 || !strings.Contains(errs[0].Message, "choose the file rex.jpg again") {
		t.Errorf("errors = %v; want each missing file asked for again", errs)
	}
	if prev := Preview(op, "", st); prev == nil || !bytes.Contains(prev.Body, []byte(`filename="rex.jpg"`)) {
		t.Errorf("preview body = %q", prev.Body)
	}
	// A walkthrough gives a file as its text.
	req, errs = Build(op, "", State{Body: `{"name":"Rex","photo":"raw bytes"}`})
	if errs != nil || !bytes.Contains(req.Body, []byte("name=\"photo\"; filename=\"photo\"\r\nContent-Type: image/jpeg\r\n\r\nraw bytes\r\n")) {
		t.Errorf("body = %q, errors %v", req.Body, errs)
	}
}

// TestTextBodies: XML is checked and sent as typed, text as it is, a binary body as its file.
func TestTextBodies(t *testing.T) {
	xmlOp := &catalog.Operation{Method: "POST", Path: "/x", Body: &catalog.RequestBody{ContentType: "application/xml", Required: true,
		Schema: &catalog.Schema{Type: "object", Ref: "Pet", Properties: []catalog.Property{
			{Name: "id", Schema: &catalog.Schema{Type: "integer", XML: &catalog.XML{Attribute: true}}},
			{Name: "name", Schema: &catalog.Schema{Type: "string", Example: []byte(`"Rex"`)}},
			{Name: "tags", Schema: &catalog.Schema{Type: "array", XML: &catalog.XML{Wrapped: true}, Items: &catalog.Schema{Type: "string", XML: &catalog.XML{Name: "tag"}}}},
		}}, Example: []byte(`{"id":1,"name":"Rex","tags":["a"]}`)}}
	initial := InitialBody(xmlOp.Body)
	if want := "<Pet id=\"1\">\n  <name>Rex</name>\n  <tags>\n    <tag>a</tag>\n  </tags>\n</Pet>\n"; initial != want {
		t.Errorf("initial XML = %q; want %q", initial, want)
	}
	req, errs := Build(xmlOp, "", State{Body: initial})
	if errs != nil || string(req.Body) != strings.TrimSpace(initial) || req.Headers[0].Value != "application/xml" {
		t.Errorf("got %q %v %v", req.Body, req.Headers, errs)
	}
	if _, errs := Build(xmlOp, "", State{Body: "<a><b></a>"}); len(errs) != 1 || !strings.HasPrefix(errs[0].Message, "not XML:") {
		t.Errorf("errors = %v; want not XML", errs)
	}
	textOp := &catalog.Operation{Method: "POST", Path: "/t", Body: &catalog.RequestBody{ContentType: "text/plain", Example: []byte(`"hello"`)}}
	if req, _ := Build(textOp, "", State{Body: " two lines\n"}); string(req.Body) != " two lines\n" {
		t.Errorf("text body = %q; want it as typed", req.Body)
	}
	binOp := &catalog.Operation{Method: "PUT", Path: "/b", Body: &catalog.RequestBody{ContentType: "image/*", Schema: &catalog.Schema{Type: "string", Format: "binary"}}}
	req, errs = Build(binOp, "", State{Body: FileRef("a.png"), Files: map[string]File{"": {Name: "a.png", Type: "image/png", Data: []byte{0x89, 'P'}}}})
	if errs != nil || !bytes.Equal(req.Body, []byte{0x89, 'P'}) || req.Headers[0].Value != "image/png" {
		t.Errorf("binary: got %q %v %v", req.Body, req.Headers, errs)
	}
	if _, errs := Build(binOp, "", State{Body: FileRef("a.png")}); len(errs) != 1 {
		t.Errorf("binary without its file: errors %v; want one", errs)
	}
	form := &catalog.RequestBody{ContentType: "application/x-www-form-urlencoded", Example: []byte(`"grant_type=client_credentials&scope=a+b"`)}
	if got, want := InitialBody(form), "{\n  \"grant_type\": \"client_credentials\",\n  \"scope\": \"a b\"\n}"; got != want {
		t.Errorf("form example = %q; want %q", got, want)
	}
}
