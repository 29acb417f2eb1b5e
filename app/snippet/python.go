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
	if len(req.Headers)+len(header) > 0 {
		b.WriteString("    headers={\n")
		for _, h := range req.Headers {
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
	if req.Body != nil {
		b.WriteString("    data=" + str(string(req.Body)) + ".encode(),\n")
	}
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
