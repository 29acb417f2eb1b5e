package op

import (
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/internal/apptest"
	"loupe/app/request"
)

var uploadSchema = &catalog.Schema{Type: "object", Properties: []catalog.Property{
	{Name: "purpose", Required: true, Schema: &catalog.Schema{Type: "string", Enum: []catalog.EnumValue{{Value: []byte(`"fine-tune"`)}, {Value: []byte(`"assistants"`)}}}},
	{Name: "file", Required: true, Schema: &catalog.Schema{Type: "string", Format: "binary"}},
	{Name: "scans", Schema: &catalog.Schema{Type: "array", Items: &catalog.Schema{Type: "string", Format: "binary"}}},
	{Name: "tags", Schema: &catalog.Schema{Type: "array", Items: &catalog.Schema{Type: "string"}}},
	{Name: "meta", Schema: &catalog.Schema{Type: "object"}},
	{Name: "public", Schema: &catalog.Schema{Type: "boolean"}},
}}

// renderBodyOp renders the operation page of an operation with the given body, its state
// changed by mutate.
func renderBodyOp(t *testing.T, body *catalog.RequestBody, mutate func(st *request.State)) string {
	t.Helper()
	api := *apptest.FixtureAPI
	op := catalog.Operation{ID: "files.create", API: "demo", Method: "POST", Path: "/v1/files", Viewer: catalog.ViewerJSON, Body: body}
	api.Operations = []catalog.Operation{op}
	p := NewOperationPage(&api, &api.Operations[0])
	p.OnInit()
	if mutate != nil {
		mutate(&p.State)
		p.Validate()
	}
	return app.HTMLString(p)
}

// TestFormBodyEditor renders a multipart body as fields (an enum as a select, a file picker,
// several files, rows, a JSON box, a boolean), the chosen files by name and size, and the
// preview part by part; a link's named file asks to be chosen again.
func TestFormBodyEditor(t *testing.T) {
	body := &catalog.RequestBody{ContentType: "multipart/form-data", Required: true, Schema: uploadSchema}
	html := renderBodyOp(t, body, func(st *request.State) {
		st.SetFormValue(body, "purpose", 0, "assistants")
		st.SetFormFiles(body, "file", []request.File{{Name: "notes.txt", Type: "text/plain", Data: []byte("hello")}})
		st.SetFormFiles(body, "scans", []request.File{{Name: "a.png", Data: []byte("A")}, {Name: "b.png", Data: []byte("BB")}})
		st.AddFormItem(body, "tags")
	})
	for _, want := range []string{
		`id="body-form"`, `data-param="body:purpose"`, `id="body-f-file"`, `type="file"`,
		`multiple`, `notes.txt`, `5 B`, `a.png`, `b.png`, `id="body-f-tags"`, `+ Add value`, `array of string`,
		`object (JSON)`, `>true</option>`, `multipart/form-data`,
		`filename=&#34;notes.txt&#34;`, `‹the bytes of notes.txt, 5 bytes›`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if !regexp.MustCompile(`<option[^>]*selected[^>]*>assistants</option>`).MatchString(html) {
		t.Error("the enum's select does not show the value chosen")
	}
	if strings.Contains(html, `id="body-editor"`) {
		t.Error("a multipart body is shown as a JSON box")
	}
	linked := renderBodyOp(t, body, func(st *request.State) {
		st.Body = `{"purpose":"assistants","file":{"$file":"notes.txt"}}`
	})
	if !strings.Contains(linked, "choose this file again") {
		t.Error("a file named by a link does not ask to be chosen again")
	}
}

// TestOtherBodyEditors: text and XML in a text box, a binary body as a file picker.
func TestOtherBodyEditors(t *testing.T) {
	for _, tt := range []struct {
		ct, want, not string
	}{
		{"text/plain", `>Text</label>`, `id="body-file"`},
		{"application/xml", `>XML</label>`, `id="body-file"`},
		{"application/octet-stream", `id="body-file"`, `id="body-editor"`},
		{"application/x-www-form-urlencoded", `sent as application/x-www-form-urlencoded`, `id="body-editor"`},
	} {
		html := renderBodyOp(t, &catalog.RequestBody{ContentType: tt.ct, Schema: &catalog.Schema{Type: "object"}}, nil)
		if tt.ct == "application/octet-stream" {
			html = renderBodyOp(t, &catalog.RequestBody{ContentType: tt.ct}, nil)
		}
		if !strings.Contains(html, tt.want) || strings.Contains(html, tt.not) {
			t.Errorf("%s: want %s and no %s", tt.ct, tt.want, tt.not)
		}
	}
}
