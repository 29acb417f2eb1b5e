package snippet

import (
	"strings"

	"loupe/app/request"
)

// Python returns req as Python using requests: it prints the status and the body, a stream's
// lines as they arrive. Each credential is read from os.environ; the body is sent as the exact
// bytes the form sends.
func Python(t Target, req *request.Request) string {
	var b strings.Builder
	comments(&b, "#", t.notes())
	query, header := queryCreds(t.creds())
	if len(t.creds()) > 0 {
		b.WriteString("import os\n\n")
	}
	b.WriteString("import requests\n\n")
	method := req.Method
	if method == "" {
		method = "GET"
	}
	b.WriteString("response = requests.request(\n")
	b.WriteString("    " + str(method) + ",\n")
	b.WriteString("    " + str(t.URL(req)) + ",\n")
	if len(query) > 0 {
		b.WriteString("    params={\n")
		for _, c := range query {
			b.WriteString("        " + str(c.Name) + ": os.environ[" + str(c.Var) + "],\n")
		}
		b.WriteString("    },\n")
	}
	if len(sentHeaders(req))+len(header) > 0 {
		b.WriteString("    headers={\n")
		for _, h := range sentHeaders(req) {
			b.WriteString("        " + str(h.Name) + ": " + str(h.Value) + ",\n")
		}
		for _, c := range header {
			value := "os.environ[" + str(c.Var) + "]"
			if c.Before != "" {
				value = str(c.Before) + " + " + value
			}
			b.WriteString("        " + str(c.Name) + ": " + value + ",\n")
		}
		b.WriteString("    },\n")
	}
	pythonBody(&b, req)
	stream := streams(req.Body)
	if stream {
		b.WriteString("    stream=True,\n")
	}
	b.WriteString(")\n")
	b.WriteString("print(response.status_code, response.reason)\n")
	if stream { // each event as it arrives
		b.WriteString("for line in response.iter_lines():\n    print(line.decode())\n")
	} else {
		b.WriteString("print(response.text)\n")
	}
	return b.String()
}

// pythonBody writes req's body as arguments of requests.request: a multipart body as files=, a
// list of its parts in the form's order (a field as (None, value), a file opened by its name),
// a urlencoded body as data=, a list of its fields in the form's order, any other body as its
// exact bytes.
func pythonBody(b *strings.Builder, req *request.Request) {
	switch {
	case isMultipart(req):
		b.WriteString("    files=[\n")
		for _, p := range req.Parts {
			file := "None, " + str(p.Value)
			if p.FileName != "" {
				file = str(p.FileName) + ", open(" + str(p.FileName) + ", \"rb\")"
			}
			switch {
			case len(p.Headers) > 0:
				heads := make([]string, len(p.Headers))
				for i, h := range p.Headers {
					heads[i] = str(h.Name) + ": " + str(h.Value)
				}
				ct := "None"
				if p.ContentType != "" {
					ct = str(p.ContentType)
				}
				file += ", " + ct + ", {" + strings.Join(heads, ", ") + "}"
			case p.ContentType != "":
				file += ", " + str(p.ContentType)
			}
			b.WriteString("        (" + str(p.Name) + ", (" + file + ")),\n")
		}
		b.WriteString("    ],\n")
	case isURLEncoded(req):
		b.WriteString("    data=[\n")
		for _, p := range req.Form {
			b.WriteString("        (" + str(p.Name) + ", " + str(p.Value) + "),\n")
		}
		b.WriteString("    ],\n")
	case req.Body != nil:
		b.WriteString("    data=" + str(string(req.Body)) + ".encode(),\n")
	}
}
