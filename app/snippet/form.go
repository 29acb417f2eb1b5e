package snippet

import (
	"net/url"
	"strings"

	"loupe/app/fetch"
	"loupe/app/request"
)

// A form body is written the way each language sends form fields itself, not as the bytes the
// page encoded: a multipart body as its parts (a file part names the file the user chose, whose
// bytes the snippet reads when it runs; the page's bytes are never embedded), an
// application/x-www-form-urlencoded body as its fields in the form's order. This file holds
// what the languages share.

// isMultipart reports whether req's body is sent as multipart parts (request.Request.Parts).
func isMultipart(req *request.Request) bool { return len(req.Parts) > 0 }

// isURLEncoded reports whether req's body is sent as form fields (request.Request.Form).
func isURLEncoded(req *request.Request) bool { return len(req.Parts) == 0 && len(req.Form) > 0 }

// sentHeaders returns the headers a snippet sets: req's, but a multipart body's Content-Type,
// which each client writes itself with a boundary of its own.
func sentHeaders(req *request.Request) []fetch.Header {
	if !isMultipart(req) {
		return req.Headers
	}
	var out []fetch.Header
	for _, h := range req.Headers {
		if !strings.EqualFold(h.Name, "Content-Type") {
			out = append(out, h)
		}
	}
	return out
}

// formName escapes a urlencoded field's name as the form does, but keeps the brackets of a
// deepObject name (filter[status]) readable: a server reads them the same either way.
func formName(name string) string {
	return strings.NewReplacer("%5B", "[", "%5D", "]").Replace(url.QueryEscape(name))
}

// curlBody writes req's body as curl options: each multipart part as -F (a file as
// @name;type=…) or --form-string, each urlencoded field as --data-urlencode in the form's
// order, any other body as --data-raw.
func curlBody(b *strings.Builder, req *request.Request) {
	switch {
	case isMultipart(req):
		for _, p := range req.Parts {
			b.WriteString(" \\\n  " + curlPart(p))
		}
		return
	case isURLEncoded(req) && namedPairs(req.Form):
		for _, p := range req.Form {
			b.WriteString(" \\\n  --data-urlencode " + Quote(formName(p.Name)+"="+p.Value))
		}
		return
	}
	if req.Body != nil {
		b.WriteString(" \\\n  --data-raw " + Quote(string(req.Body)))
	}
}

// curlNotes says what of req's form curl cannot send: a part's name holding =, where -F and
// --form-string cut it; a multipart body of no part.
func curlNotes(req *request.Request) []string {
	var notes []string
	if emptyMultipart(req) {
		notes = append(notes, "curl's -F cannot send a form of no part (a required multipart body left empty, which only a browser sends): this sends its bytes, the closing boundary alone, as they are.")
	}
	for _, p := range req.Parts {
		if strings.Contains(p.Name, "=") {
			notes = append(notes, "curl cuts a part's name at its first =: the part "+p.Name+" goes as "+p.Name[:strings.IndexByte(p.Name, '=')]+".")
		}
	}
	return notes
}

// emptyMultipart reports whether req's body is multipart without a part (the request package
// sends one only for a required form body left empty; an optional one is no body).
func emptyMultipart(req *request.Request) bool {
	if req.Body == nil || isMultipart(req) {
		return false
	}
	for _, h := range req.Headers {
		if strings.EqualFold(h.Name, "Content-Type") && strings.HasPrefix(h.Value, "multipart/form-data") {
			return true
		}
	}
	return false
}

// namedPairs reports whether every field has a name: curl's --data-urlencode reads "=value"
// as a value alone, with no "=".
func namedPairs(form []request.Pair) bool {
	for _, p := range form {
		if p.Name == "" {
			return false
		}
	}
	return true
}

// curlPart writes one multipart part as a curl option: a field without a type or headers as
// --form-string (sent as it is: curl reads nothing in it), a file as -F name=@file, another
// field as -F name="value" with its type and headers.
func curlPart(p request.Part) string {
	var params string
	if p.ContentType != "" {
		params += ";type=" + curlWord(p.ContentType)
	}
	for _, h := range p.Headers {
		params += ";headers=" + curlWord(h.Name+": "+h.Value)
	}
	switch {
	case p.FileName != "":
		return "-F " + Quote(p.Name+"=@"+curlWord(p.FileName)+params)
	case params == "":
		return "--form-string " + Quote(p.Name+"="+p.Value)
	}
	return "-F " + Quote(p.Name+"="+curlQuoted(p.Value)+params)
}

// curlWord returns s as a word of curl's -F option: as it is when curl reads it so, else in
// double quotes (curl's own quoting, \" and \\ escaped).
func curlWord(s string) string {
	if s != "" && !strings.ContainsAny(s, ";,\"\\ \t\r\n") && s[0] != '<' && s[0] != '@' {
		return s
	}
	return curlQuoted(s)
}

// curlQuoted returns s in curl's double quotes.
func curlQuoted(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
