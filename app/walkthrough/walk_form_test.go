package walkthrough

import (
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/app/request"
)

// TestCallFormSendsTheStepsType: a step's requestBody.contentType decides how the page's form
// shows and sends its body, as the server-side run does (request.SentAs): a type the document
// offers with its own fields, an encoded form as its fields, a type it does not offer as
// that type alone, none as the operation's default.
func TestCallFormSendsTheStepsType(t *testing.T) {
	fields := &catalog.Schema{Type: "object", Properties: []catalog.Property{
		{Name: "a", Schema: &catalog.Schema{Type: "string"}}, {Name: "b", Schema: &catalog.Schema{Type: "string"}},
	}}
	operation := &catalog.Operation{ID: "things.create", Method: "POST", Path: "/things", Body: &catalog.RequestBody{
		ContentType: "application/json", Schema: fields, Media: []catalog.BodyMedia{
			{ContentType: "application/json", Schema: fields},
			{ContentType: "application/x-www-form-urlencoded", Schema: fields},
			{ContentType: "multipart/form-data", Schema: fields},
		}}}
	for _, tt := range []struct {
		name, ct, body string
		wantType       string // the Content-Type sent, up to the boundary
		wantBody       string // the body sent; for multipart, its parts as name=value
		wantFields     bool   // the form shows the body field by field
	}{
		{"urlencoded fields", "application/x-www-form-urlencoded", "{\n  \"a\": \"1\",\n  \"b\": \"x y\"\n}", "application/x-www-form-urlencoded", "a=1&b=x+y", true},
		{"an encoded form", "application/x-www-form-urlencoded; charset=utf-8", "a=1&b=x%20y", "application/x-www-form-urlencoded", "a=1&b=x+y", true},
		{"multipart", "multipart/form-data", `{"a": "1", "b": "2"}`, "multipart/form-data; boundary=", "a=1\nb=2", true},
		{"a type not offered", "text/plain", "hello", "text/plain", "hello", false},
		{"the default", "", `{"a":"1"}`, "application/json", `{"a":"1"}`, false},
	} {
		f := callForm(&catalog.WalkCall{OperationID: operation.ID, Body: tt.body, ContentType: tt.ct}, operation, "/proxy/demo")
		req, errs := request.Build(f.Op, f.Base, f.State)
		if errs != nil {
			t.Errorf("%s: %v", tt.name, errs)
			continue
		}
		ct := ""
		for _, h := range req.Headers {
			if h.Name == "Content-Type" {
				ct = h.Value
			}
		}
		body := string(req.Body)
		if req.Parts != nil {
			var parts []string
			for _, p := range req.Parts {
				parts = append(parts, p.Name+"="+p.Value)
			}
			body = strings.Join(parts, "\n")
		}
		if !strings.HasPrefix(ct, tt.wantType) || body != tt.wantBody {
			t.Errorf("%s: sent %s %q; want %s %q", tt.name, ct, body, tt.wantType, tt.wantBody)
		}
		b := request.BodyOf(f.Op, f.State)
		_, ok := request.FormFields(b, f.State.Body)
		if shown := ok && (b.Kind() == catalog.BodyURLEncoded || b.Kind() == catalog.BodyMultipart); shown != tt.wantFields {
			t.Errorf("%s: shown field by field %v; want %v", tt.name, shown, tt.wantFields)
		}
	}
}
