package request

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// BodyText returns the body as the preview shows it: a text body as it is sent; a multipart
// body part by part as it is sent, each file's bytes stood for by its name and size; any
// other body that is not UTF-8 text by its size. "" when no body is sent.
func (r *Request) BodyText() string {
	if r.Body == nil {
		return ""
	}
	if r.Parts == nil {
		if utf8.Valid(r.Body) {
			return string(r.Body)
		}
		return "‹" + strconv.Itoa(len(r.Body)) + " bytes›"
	}
	boundary := ""
	for _, h := range r.Headers {
		if strings.EqualFold(h.Name, "Content-Type") {
			_, boundary, _ = strings.Cut(h.Value, "boundary=")
		}
	}
	var b strings.Builder
	for _, p := range r.Parts {
		b.WriteString("--" + boundary + "\n")
		b.WriteString(`Content-Disposition: form-data; name="` + quoteParam(p.Name) + `"`)
		if p.FileName != "" {
			b.WriteString(`; filename="` + quoteParam(p.FileName) + `"`)
		}
		b.WriteString("\n")
		if p.ContentType != "" {
			b.WriteString("Content-Type: " + p.ContentType + "\n")
		}
		for _, h := range p.Headers {
			b.WriteString(h.Name + ": " + h.Value + "\n")
		}
		b.WriteString("\n")
		if p.FileName != "" {
			b.WriteString("‹the bytes of " + p.FileName + ", " + strconv.Itoa(p.Size) + " bytes›\n")
		} else {
			b.WriteString(p.Value + "\n")
		}
	}
	b.WriteString("--" + boundary + "--\n")
	return b.String()
}
