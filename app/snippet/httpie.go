package snippet

import (
	"net/url"
	"strings"

	"loupe/app/request"
)

// HTTPie returns req as an HTTPie command (https://httpie.io, version 3 or later) sent to t:
// exiting non-zero on an HTTP error, one item per line, the body as --raw text so that it is sent byte for byte, and each
// credential as ${VAR} for the shell to put in.
func HTTPie(t Target, req *request.Request) string {
	var b strings.Builder
	comments(&b, "#", t.notes())
	target := t.URL(req)
	query, header := queryCreds(t.creds())
	for _, c := range query {
		sep := "?"
		if hasQuery(target) {
			sep = "&"
		}
		target += sep + url.QueryEscape(c.Name) + "=" + varMark + c.Var + varMark
	}
	method := req.Method
	if method == "" {
		method = "GET"
	}
	b.WriteString("http --ignore-stdin --check-status ")
	if streams(req.Body) {
		b.WriteString("--stream ") // print each event as it arrives
	}
	b.WriteString(method + " " + quoteVars(target))
	for _, h := range req.Headers {
		b.WriteString(" \\\n  " + Quote(httpieEscape(h.Name)+":"+h.Value))
	}
	for _, c := range header {
		b.WriteString(" \\\n  " + quoteVars(c.Name+":"+c.Before+varMark+c.Var+varMark))
	}
	if req.Body != nil {
		b.WriteString(" \\\n  --raw " + Quote(string(req.Body)))
	}
	return b.String()
}

// httpieEscape escapes the characters HTTPie would read as an item separator in a header name.
func httpieEscape(name string) string {
	return strings.NewReplacer(`=`, `\=`, `@`, `\@`, `:`, `\:`).Replace(name)
}
