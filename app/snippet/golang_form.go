package snippet

import (
	"strconv"
	"strings"

	"loupe/app/request"
)

// goBody returns the Go expression of req's body for http.NewRequest, the statements that
// build it (written before the request), the statements that follow the request (a multipart
// body's Content-Type, with the writer's boundary) and the helper functions they call, adding
// the packages they use to imports. A multipart body is written with mime/multipart in the
// form's order, a file read by its name; a urlencoded body is joined from its fields in the
// form's order, each escaped by net/url; any other body is its exact text.
func goBody(req *request.Request, imports map[string]bool) (expr, before, after, helpers string) {
	switch {
	case isMultipart(req):
		imports["bytes"], imports["mime/multipart"] = true, true
		var b strings.Builder
		b.WriteString("\tvar body bytes.Buffer\n")
		b.WriteString("\tform := multipart.NewWriter(&body)\n")
		usesPart, usesFile := false, false
		for _, p := range req.Parts {
			if p.FileName == "" && p.ContentType == "" && len(p.Headers) == 0 && !strings.ContainsAny(p.Name, "\"\\\r\n") {
				b.WriteString("\tif err := form.WriteField(" + strconv.Quote(p.Name) + ", " + goString(p.Value) + "); err != nil {\n\t\tpanic(err)\n\t}\n")
				continue
			}
			usesPart = true
			disposition := `form-data; name="` + dispositionParam(p.Name) + `"`
			if p.FileName != "" {
				disposition += `; filename="` + dispositionParam(p.FileName) + `"`
			}
			heads := []string{strconv.Quote("Content-Disposition") + ": {" + goString(disposition) + "}"}
			if p.ContentType != "" {
				heads = append(heads, strconv.Quote("Content-Type")+": {"+strconv.Quote(p.ContentType)+"}")
			}
			for _, h := range p.Headers {
				heads = append(heads, strconv.Quote(h.Name)+": {"+strconv.Quote(h.Value)+"}")
			}
			content := "strings.NewReader(" + goString(p.Value) + ")"
			if p.FileName != "" {
				usesFile = true
				content = "fileOf(" + strconv.Quote(p.FileName) + ")"
			} else {
				imports["strings"] = true
			}
			b.WriteString("\taddPart(form, textproto.MIMEHeader{\n\t\t" + strings.Join(heads, ",\n\t\t") + ",\n\t}, " + content + ")\n")
		}
		b.WriteString("\tif err := form.Close(); err != nil {\n\t\tpanic(err)\n\t}\n")
		var h strings.Builder
		if usesPart {
			imports["io"], imports["net/textproto"] = true, true
			h.WriteString("\n// addPart writes one part of the form: its headers, then its content.\n")
			h.WriteString("func addPart(form *multipart.Writer, header textproto.MIMEHeader, content io.Reader) {\n")
			h.WriteString("\tpart, err := form.CreatePart(header)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n")
			h.WriteString("\tif _, err := io.Copy(part, content); err != nil {\n\t\tpanic(err)\n\t}\n}\n")
		}
		if usesFile {
			imports["os"] = true
			h.WriteString("\n// fileOf reads the file a part sends.\n")
			h.WriteString("func fileOf(name string) io.Reader {\n")
			h.WriteString("\tdata, err := os.ReadFile(name)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n")
			h.WriteString("\treturn bytes.NewReader(data)\n}\n")
		}
		return "&body", b.String(), "\treq.Header.Set(\"Content-Type\", form.FormDataContentType())\n", h.String()
	case isURLEncoded(req):
		imports["strings"], imports["net/url"] = true, true
		var b strings.Builder
		b.WriteString("\tform := strings.Join([]string{\n")
		for _, p := range req.Form {
			b.WriteString("\t\t" + strconv.Quote(formName(p.Name)+"=") + " + url.QueryEscape(" + goString(p.Value) + "),\n")
		}
		b.WriteString("\t}, \"&\")\n")
		return "strings.NewReader(form)", b.String(), "", ""
	case req.Body != nil:
		imports["strings"] = true
		return "strings.NewReader(" + goString(string(req.Body)) + ")", "", "", ""
	}
	return "nil", "", "", ""
}

// dispositionParam escapes a part's name or filename in its Content-Disposition as the form
// does (as browsers do): a quote as %22, CR and LF as %0D and %0A.
func dispositionParam(s string) string {
	return strings.NewReplacer(`"`, "%22", "\r", "%0D", "\n", "%0A").Replace(s)
}
