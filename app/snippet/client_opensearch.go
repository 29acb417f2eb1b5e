package snippet

import (
	"strings"

	"loupe/app/request"
)

// OpenSearchPython returns req as Python using opensearch-py, pointed at t: the client's
// perform_request sends exactly the form's method, path, query, headers and body.
func OpenSearchPython(t Target, req *request.Request) string {
	var b strings.Builder
	comments(&b, "#", t.notes())
	b.WriteString("import json\n")
	cs := t.creds()
	if len(cs) > 0 {
		b.WriteString("import os\n")
	}
	b.WriteString("\nfrom opensearchpy import OpenSearch\n\n")
	b.WriteString("client = OpenSearch(hosts=[" + str(t.base()) + "]")
	if len(cs) > 0 {
		b.WriteString(", headers={" + str(cs[0].Name) + ": " + envValue(cs[0], true) + "}")
	}
	b.WriteString(")\n")
	b.WriteString("response = client.transport.perform_request(\n")
	b.WriteString("    " + str(req.Method) + ",\n")
	b.WriteString("    " + str(req.Path) + ",\n")
	if len(req.Query) > 0 {
		b.WriteString("    params={")
		for i, q := range req.Query {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(str(q.Name) + ": " + str(q.Value))
		}
		b.WriteString("},\n")
	}
	if len(req.Headers) > 0 {
		b.WriteString("    headers={")
		for i, h := range req.Headers {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(str(h.Name) + ": " + str(h.Value))
		}
		b.WriteString("},\n")
	}
	if req.Body != nil {
		b.WriteString("    body=" + str(string(req.Body)) + ",\n")
	}
	b.WriteString(")\n")
	b.WriteString("print(json.dumps(response, indent=2))\n")
	return b.String()
}

// OpenSearchNode returns req as a Node.js ES module using @opensearch-project/opensearch,
// pointed at t: the client's transport.request sends exactly the form's request.
func OpenSearchNode(t Target, req *request.Request) string {
	var b strings.Builder
	comments(&b, "//", t.notes())
	b.WriteString("import { Client } from \"@opensearch-project/opensearch\";\n\n")
	b.WriteString("const client = new Client({ node: " + str(t.base()))
	if cs := t.creds(); len(cs) > 0 {
		b.WriteString(", headers: { " + str(cs[0].Name) + ": " + envValue(cs[0], false) + " }")
	}
	b.WriteString(" });\n")
	b.WriteString("const response = await client.transport.request(\n  {\n")
	b.WriteString("    method: " + str(req.Method) + ",\n")
	b.WriteString("    path: " + str(req.Path) + ",\n")
	if len(req.Query) > 0 {
		b.WriteString("    querystring: {")
		for i, q := range req.Query {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(" " + str(q.Name) + ": " + str(q.Value))
		}
		b.WriteString(" },\n")
	}
	if req.Body != nil {
		b.WriteString("    body: " + str(string(req.Body)) + ",\n")
	}
	b.WriteString("  },\n")
	if len(req.Headers) > 0 {
		b.WriteString("  { headers: {")
		for i, h := range req.Headers {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(" " + str(h.Name) + ": " + str(h.Value))
		}
		b.WriteString(" } },\n")
	}
	b.WriteString(");\n")
	b.WriteString("console.log(response.statusCode);\n")
	b.WriteString("console.log(JSON.stringify(response.body, null, 2));\n")
	return b.String()
}
