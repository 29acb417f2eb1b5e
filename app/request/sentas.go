package request

import (
	"encoding/json"
	"mime"
	"strings"

	"loupe/app/catalog"
)

// A walkthrough step may send an operation's body as a content type of its own
// (requestBody.contentType in Arazzo). The server's runner (server/walkthrough) and the
// walkthrough page's form (app/walkthrough) both send it as SentAs says, so that the page
// shows and sends what a server-side run sends.

// SentAs returns the operation and the State.BodyType a body of content type ct is sent
// with: op and "" when ct is empty or op's default type; op and the document's spelling of
// ct when the document offers it (its parameters aside: "application/json; charset=utf-8"
// is application/json), so its own schema and encoding apply; else a copy of op whose body
// is of type ct alone, with no schema, as the document says nothing of it.
func SentAs(op *catalog.Operation, ct string) (*catalog.Operation, string) {
	if op == nil || (ct == "" && op.Body != nil) {
		return op, ""
	}
	if op.Body != nil {
		if SameMediaType(ct, op.Body.ContentType) {
			return op, ""
		}
		for _, t := range op.Body.Types() {
			if SameMediaType(ct, t) {
				return op, t
			}
		}
	}
	c := *op
	c.Body = &catalog.RequestBody{ContentType: ct}
	return &c, ""
}

// SameMediaType reports whether two content types name the same media type, parameters aside.
func SameMediaType(a, b string) bool {
	ma, _, _ := mime.ParseMediaType(a)
	mb, _, _ := mime.ParseMediaType(b)
	return ma != "" && strings.EqualFold(ma, mb)
}

// FormText returns the form editor's text (a JSON object of fields) of an
// application/x-www-form-urlencoded body written already encoded ("a=1&b=x+y"), its fields in
// its order; ok is false for text that is a JSON object already, or blank.
func FormText(encoded string) (text string, ok bool) {
	s := strings.TrimSpace(encoded)
	if s == "" || strings.HasPrefix(s, "{") {
		return "", false
	}
	quoted, _ := json.Marshal(s)
	return formExample(quoted)
}
