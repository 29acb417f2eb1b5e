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
	if len(req.Headers)+len(header) > 0 {
		b.WriteString("  headers: {\n")
		for _, h := range req.Headers {
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
	if req.Body != nil {
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
