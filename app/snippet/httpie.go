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
	items, notes := httpieBody(req)
	comments(&b, "#", notes)
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
	switch {
	case isMultipart(req):
		b.WriteString("--multipart ")
	case isURLEncoded(req):
		b.WriteString("--form ")
	}
	b.WriteString(method + " " + quoteVars(target))
	for _, h := range sentHeaders(req) {
		b.WriteString(" \\\n  " + Quote(httpieEscape(h.Name)+":"+h.Value))
	}
	for _, c := range header {
		b.WriteString(" \\\n  " + quoteVars(c.Name+":"+c.Before+varMark+c.Var+varMark))
	}
	for _, item := range items {
		b.WriteString(" \\\n  " + item)
	}
	return b.String()
}

// httpieBody returns req's body as HTTPie items: a multipart body's parts (name=value, a file
// as name@file;type=…) or a urlencoded body's fields (name=value), each quoted for the shell;
// any other body as --raw. notes say what of the form HTTPie cannot send.
func httpieBody(req *request.Request) (items, notes []string) {
	switch {
	case isMultipart(req):
		for _, p := range req.Parts {
			if p.FileName == "" {
				if p.ContentType != "" {
					notes = append(notes, "HTTPie sends the field "+p.Name+" without its Content-Type ("+p.ContentType+"): it types only a file's part.")
				}
				items = append(items, Quote(httpieItem(p.Name)+"="+httpieItem(p.Value)))
			} else {
				path := p.FileName
				if strings.HasPrefix(path, "~") {
					path = "./" + path // HTTPie would read ~ as a home folder
				}
				items = append(items, Quote(httpieItem(p.Name)+"@"+httpieItem(path)+";type="+p.ContentType))
			}
			for _, h := range p.Headers {
				notes = append(notes, "HTTPie cannot send the part "+p.Name+"'s header "+h.Name+": "+h.Value+".")
			}
			if httpieLossy(p.Name) || httpieLossy(p.Value) || httpieLossy(p.FileName) {
				notes = append(notes, "HTTPie reads a \\ before = @ : or ; as an escape: the part "+p.Name+" loses it.")
			}
		}
	case isURLEncoded(req):
		for _, p := range req.Form {
			items = append(items, Quote(httpieItem(p.Name)+"="+httpieItem(p.Value)))
			if httpieLossy(p.Name) || httpieLossy(p.Value) {
				notes = append(notes, "HTTPie reads a \\ before = @ : or ; as an escape: the field "+p.Name+" loses it.")
			}
		}
	case req.Body != nil:
		items = append(items, "--raw "+Quote(string(req.Body)))
	}
	return items, notes
}

// httpieSpecial are the characters of HTTPie's item separators (= == := @ =@ :=@ : ; ==@ :@),
// which a backslash escapes in an item's name and value.
const httpieSpecial = "=@:;"

// httpieItem escapes each separator character of s with a backslash, so that HTTPie reads s as
// it is on either side of the item's separator.
func httpieItem(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(httpieSpecial, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// httpieLossy reports whether s holds a backslash before a separator character, which HTTPie
// cannot be given: it reads \\ there as a backslash and the next one as an escape.
func httpieLossy(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '\\' && strings.IndexByte(httpieSpecial, s[i+1]) >= 0 {
			return true
		}
	}
	return false
}

// httpieEscape escapes the characters HTTPie would read as an item separator in a header name.
func httpieEscape(name string) string {
	return strings.NewReplacer(`=`, `\=`, `@`, `\@`, `:`, `\:`).Replace(name)
}
