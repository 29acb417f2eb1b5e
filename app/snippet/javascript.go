package snippet

import (
	"strings"

	"loupe/app/request"
)

// JavaScript returns req as JavaScript using fetch, an ES module for Node.js 18 or later (it
// awaits at the top level: saved as .mjs, see Kind.File): it prints the status and the body, a
// stream's events as they arrive.
func JavaScript(t Target, req *request.Request) string {
	var b strings.Builder
	comments(&b, "//", t.notes())
	form, notes := jsForm(req)
	comments(&b, "//", notes)
	b.WriteString(form)
	query, header := queryCreds(t.creds())
	target := str(t.URL(req))
	for i, c := range query {
		sep := "?"
		if i > 0 || hasQuery(t.URL(req)) {
			sep = "&"
		}
		target += " +\n  " + str(sep+c.Name+"=") + " + encodeURIComponent(process.env." + c.Var + ")"
	}
	method := req.Method
	if method == "" {
		method = "GET"
	}
	b.WriteString("const response = await fetch(" + target + ", {\n")
	b.WriteString("  method: " + str(method) + ",\n")
	if len(sentHeaders(req))+len(header) > 0 {
		b.WriteString("  headers: {\n")
		for _, h := range sentHeaders(req) {
			b.WriteString("    " + str(h.Name) + ": " + str(h.Value) + ",\n")
		}
		for _, c := range header {
			value := "process.env." + c.Var
			if c.Before != "" {
				value = str(c.Before) + " + " + value
			}
			b.WriteString("    " + str(c.Name) + ": " + value + ",\n")
		}
		b.WriteString("  },\n")
	}
	switch {
	case isMultipart(req):
		b.WriteString("  body: form,\n")
	case isURLEncoded(req):
		b.WriteString("  body: new URLSearchParams([\n")
		for _, p := range req.Form {
			b.WriteString("    [" + str(p.Name) + ", " + str(p.Value) + "],\n")
		}
		b.WriteString("  ]),\n")
	case req.Body != nil:
		b.WriteString("  body: " + str(string(req.Body)) + ",\n")
	}
	b.WriteString("});\n")
	b.WriteString("console.log(response.status, response.statusText);\n")
	if streams(req.Body) { // each event as it arrives
		b.WriteString("const decoder = new TextDecoder();\n")
		b.WriteString("for await (const chunk of response.body) process.stdout.write(decoder.decode(chunk, { stream: true }));\n")
	} else {
		b.WriteString("console.log(await response.text());\n")
	}
	return b.String()
}

// jsForm returns the statements that build a multipart body as a FormData, in the form's order:
// a field appended as its text, a file read by its name into a Blob of its type; "" for any
// other body. notes say what of the form FormData cannot send.
func jsForm(req *request.Request) (code string, notes []string) {
	if !isMultipart(req) {
		return "", nil
	}
	var b strings.Builder
	for _, p := range req.Parts {
		if p.FileName != "" {
			b.WriteString("import { readFile } from \"node:fs/promises\";\n\n")
			break
		}
	}
	b.WriteString("const form = new FormData();\n")
	for _, p := range req.Parts {
		switch {
		case p.FileName != "":
			b.WriteString("form.append(" + str(p.Name) + ", new Blob([await readFile(" + str(p.FileName) + ")], { type: " + str(p.ContentType) + " }), " + str(p.FileName) + ");\n")
		case p.ContentType != "":
			notes = append(notes, "FormData sends the typed field "+p.Name+" as a file named blob: it gives a type only to a file's part.")
			b.WriteString("form.append(" + str(p.Name) + ", new Blob([" + str(p.Value) + "], { type: " + str(p.ContentType) + " }));\n")
		default:
			b.WriteString("form.append(" + str(p.Name) + ", " + str(p.Value) + ");\n")
		}
		for _, h := range p.Headers {
			notes = append(notes, "FormData cannot send the part "+p.Name+"'s header "+h.Name+": "+h.Value+".")
		}
	}
	b.WriteString("\n")
	return b.String(), notes
}
