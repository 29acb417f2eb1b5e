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

// fieldsText summarizes FormFields as name=values|flags, one field a line.
func fieldsText(t *testing.T, b *catalog.RequestBody, body string) string {
	t.Helper()
	fields, ok := FormFields(b, body)
	if !ok {
		t.Fatalf("FormFields(%q): not a form", body)
	}
	var lines []string
	for _, f := range fields {
		flags := ""
		for _, on := range []struct {
			set  bool
			name string
		}{{f.Required, "req"}, {f.List, "list"}, {f.File, "file"}, {f.JSON, "json"}, {f.Sent, "sent"}} {
			if on.set {
				flags += " " + on.name
			}
		}
		lines = append(lines, f.Name+"="+strings.Join(f.Values, ",")+" |"+flags)
	}
	return strings.Join(lines, "\n")
}

// TestFormEditURLEncoded fills a urlencoded body field by field, as the form editor does, in
// another order than the schema's, and checks the fields shown and the body sent.
func TestFormEditURLEncoded(t *testing.T) {
	body := &catalog.RequestBody{ContentType: "application/x-www-form-urlencoded", Schema: petForm,
		Encoding: map[string]catalog.Encoding{"address": {ContentType: "application/json"}}}
	op := &catalog.Operation{Method: "POST", Path: "/pets", Body: body}
	var st State
	st.SetFormValue(body, "age", 0, "3")
	st.SetFormValue(body, "name", 0, "Rex & Co")
	st.AddFormItem(body, "tags")
	st.AddFormItem(body, "tags")
	st.SetFormValue(body, "tags", 0, "a")
	st.SetFormValue(body, "tags", 1, "b c")
	st.SetFormValue(body, "address", 0, `{"city": "Oslo"}`)
	want := "name=Rex & Co | req sent\nage=3 | sent\ntags=a,b c | list sent\nmetadata= | json\n" +
		"address={\n  \"city\": \"Oslo\"\n} | json sent\nphoto= | file\nscans= | list file"
	if got := fieldsText(t, body, st.Body); got != want {
		t.Errorf("fields:\n%s\nwant:\n%s", got, want)
	}
	req, errs := Build(op, "", st)
	if errs != nil {
		t.Fatal(errs)
	}
	if got, want := string(req.Body), "name=Rex+%26+Co&age=3&tags=a&tags=b+c&address=%7B%22city%22%3A%22Oslo%22%7D"; got != want {
		t.Errorf("body = %q; want %q", got, want)
	}

	// Removing a row, clearing a value, and a value that is not its type.
	st.RemoveFormItem(body, "tags", 0)
	st.SetFormValue(body, "address", 0, "")
	st.SetFormValue(body, "age", 0, "three")
	if got, want := fieldsText(t, body, st.Body), "age=three | sent"; !strings.Contains(got, want) || strings.Contains(got, "address={") {
		t.Errorf("fields:\n%s\nwant %q and no address", got, want)
	}
	if _, errs := Build(op, "", st); len(errs) != 1 || errs[0].Path != "age" || errs[0].Message != "must be an integer, not a string" {
		t.Errorf("errors = %v; want age must be an integer", errs)
	}
	st.SetFormValue(body, "age", 0, "4")
	if req, _ := Build(op, "", st); string(req.Body) != "name=Rex+%26+Co&age=4&tags=b+c" {
		t.Errorf("body = %q", req.Body)
	}
	// A form emptied of every field sends no body.
	for _, name := range []string{"name", "age", "tags"} {
		st.ClearFormField(body, name)
	}
	if st.Body != "" {
		t.Errorf("empty form body = %q; want no body", st.Body)
	}
	if _, ok := FormFields(body, "[1]"); ok {
		t.Error("FormFields took a JSON array for a form")
	}
}

// TestFormEditFiles chooses files for a multipart body's fields, one and several, removes one
// of several, and checks the parts sent, then that a link (no files) asks for them again.
func TestFormEditFiles(t *testing.T) {
	body := &catalog.RequestBody{ContentType: "multipart/form-data", Schema: petForm}
	op := &catalog.Operation{Method: "POST", Path: "/pets", Body: body}
	var st State
	st.SetFormValue(body, "name", 0, "Rex")
	st.SetFormFiles(body, "photo", []File{{Name: "rex.jpg", Type: "image/jpeg", Data: []byte("jpeg")}})
	st.SetFormFiles(body, "scans", []File{{Name: "1.png", Data: []byte("one")}, {Name: "2.png", Data: []byte("two")}, {Name: "3.png", Data: []byte("three")}})
	st.RemoveFormItem(body, "scans", 1)
	if got, want := fieldsText(t, body, st.Body), "photo=rex.jpg | file sent\nscans=1.png,3.png | list file sent"; !strings.Contains(got, want) {
		t.Errorf("fields:\n%s\nwant it to contain:\n%s", got, want)
	}
	req, errs := Build(op, "", st)
	if errs != nil {
		t.Fatal(errs)
	}
	if got, want := strings.Join(readParts(t, req), "\n"), "name||Rex\nphoto|rex.jpg|jpeg\nscans|1.png|one\nscans|3.png|three"; got != want {
		t.Errorf("parts:\n%s\nwant:\n%s", got, want)
	}
	if len(st.Files) != 3 || st.Files["/scans/1"].Name != "3.png" {
		t.Errorf("files = %v", st.Files)
	}
	// Choosing again replaces; choosing nothing stops sending the field.
	st.SetFormFiles(body, "scans", []File{{Name: "4.png", Data: []byte("four")}})
	st.SetFormFiles(body, "photo", nil)
	req, _ = Build(op, "", st)
	if got, want := strings.Join(readParts(t, req), "\n"), "name||Rex\nscans|4.png|four"; got != want {
		t.Errorf("parts:\n%s\nwant:\n%s", got, want)
	}
	linked := State{Body: st.Body}
	_, errs = Build(op, "", linked)
	if len(errs) != 1 || errs[0].Path != "scans" || !strings.HasPrefix(errs[0].Message, "choose the file 4.png again") {
		t.Errorf("errors = %v; want scans asked for again", errs)
	}
	// A binary body is its file.
	bin := &catalog.Operation{Method: "PUT", Path: "/b", Body: &catalog.RequestBody{ContentType: "application/octet-stream"}}
	var bst State
	bst.SetBodyFile(File{Name: "blob.bin", Data: []byte{0, 1, 2}})
	if req, errs := Build(bin, "", bst); errs != nil || !bytes.Equal(req.Body, []byte{0, 1, 2}) {
		t.Errorf("binary body = %q, errors %v", req.Body, errs)
	}
}

// readParts reads a multipart request's parts as name|filename|content.
func readParts(t *testing.T, req *Request) []string {
	t.Helper()
	_, params, err := mime.ParseMediaType(req.Headers[0].Value)
	if err != nil {
		t.Fatal(err)
	}
	r := multipart.NewReader(bytes.NewReader(req.Body), params["boundary"])
	var out []string
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(p)
		out = append(out, p.FormName()+"|"+p.FileName()+"|"+string(data))
	}
}

// TestBodyText shows a multipart body part by part, a file by its name and size, and a body
// that is not text by its size.
func TestBodyText(t *testing.T) {
	body := &catalog.RequestBody{ContentType: "multipart/form-data", Schema: petForm}
	op := &catalog.Operation{Method: "POST", Path: "/pets", Body: body}
	var st State
	st.SetFormValue(body, "name", 0, "Rex")
	st.SetFormFiles(body, "photo", []File{{Name: "rex.jpg", Type: "image/jpeg", Data: []byte{0xff, 0xd8, 0}}})
	req, errs := Build(op, "", st)
	if errs != nil {
		t.Fatal(errs)
	}
	_, boundary, _ := strings.Cut(req.Headers[0].Value, "boundary=")
	want := "--" + boundary + "\nContent-Disposition: form-data; name=\"name\"\n\nRex\n" +
		"--" + boundary + "\nContent-Disposition: form-data; name=\"photo\"; filename=\"rex.jpg\"\nContent-Type: image/jpeg\n\n‹the bytes of rex.jpg, 3 bytes›\n" +
		"--" + boundary + "--\n"
	if got := req.BodyText(); got != want {
		t.Errorf("BodyText:\n%s\nwant:\n%s", got, want)
	}
	if got, want := (&Request{Body: []byte{0xff, 0}}).BodyText(), "‹2 bytes›"; got != want {
		t.Errorf("binary BodyText = %q; want %q", got, want)
	}
}
