package catalog

import "strings"

// Parameter styles (OpenAPI 3.0 and 3.1, "Style Values").
const (
	StyleMatrix         = "matrix"
	StyleLabel          = "label"
	StyleForm           = "form"
	StyleSimple         = "simple"
	StyleSpaceDelimited = "spaceDelimited"
	StylePipeDelimited  = "pipeDelimited"
	StyleDeepObject     = "deepObject"
)

// Serialization is how a value is written: the document's style, explode and allowReserved
// with their defaults applied.
type Serialization struct {
	// Style is one of the Style constants.
	Style string
	// Explode writes each item of an array, and each property of an object, as a value of
	// its own (name=a&name=b) rather than one list (name=a,b).
	Explode bool
	// AllowReserved sends the reserved characters of RFC 3986 in a query value as they are.
	AllowReserved bool
	// Captures lets a path value's slashes through as they are ({+name}, allowReserved on a
	// path parameter): the value spans segments.
	Captures bool
}

// Serialization returns how the parameter's value is written: its style, or form in the query
// and cookies and simple in the path and headers; explode, or true for form only.
func (p *Parameter) Serialization() Serialization {
	s := Serialization{Style: p.Style, AllowReserved: p.AllowReserved}
	if s.Style == "" {
		s.Style = StyleSimple
		if p.In == "query" || p.In == "cookie" {
			s.Style = StyleForm
		}
	}
	s.Explode = s.Style == StyleForm
	switch {
	case p.Explode != nil:
		s.Explode = *p.Explode
	case s.Style == StyleForm && p.In == "query" && p.Schema != nil && p.Schema.Type == "array":
		// A catalog built by hand says explode by Repeatable alone; the compiler sets both.
		s.Explode = p.Repeatable
	}
	s.Captures = p.In == "path" && p.AllowReserved
	return s
}

// Serialization returns how a property of a urlencoded body is written: as a query parameter
// is, style form by default, exploded.
func (e *Encoding) Serialization() Serialization {
	s := Serialization{Style: StyleForm, Explode: true}
	if e == nil {
		return s
	}
	if e.Style != "" {
		s.Style = e.Style
		s.Explode = s.Style == StyleForm
	}
	if e.Explode != nil {
		s.Explode = *e.Explode
	}
	s.AllowReserved = e.AllowReserved
	return s
}

// IsFile reports whether a schema is a file's bytes: a string of format binary (OpenAPI
// 3.0), or with a contentMediaType and no contentEncoding (3.1).
func (s *Schema) IsFile() bool {
	if s == nil {
		return false
	}
	if s.Format == "binary" && (s.Type == "string" || s.Type == "") {
		return true
	}
	return s.ContentMediaType != "" && s.ContentEncoding == "" && (s.Type == "string" || s.Type == "")
}

// Body kinds: how a request body is edited and encoded (RequestBody.Kind).
const (
	BodyJSON       = "json"
	BodyURLEncoded = "urlencoded"
	BodyMultipart  = "multipart"
	BodyXML        = "xml"
	BodyText       = "text"
	BodyBinary     = "binary"
)

// Kind says how the body is edited and encoded, from its content type (and schema): one of
// the Body constants. JSON and its +json relatives are json; a content type that is neither
// text nor JSON, or whose schema is a file, is binary.
func (b *RequestBody) Kind() string {
	return BodyKind(b.ContentType, b.Schema)
}

// BodyKind is RequestBody.Kind for a content type and schema.
func BodyKind(contentType string, s *Schema) string {
	ct := mediaType(contentType)
	switch {
	case ct == "" || ct == "application/json" || strings.HasSuffix(ct, "+json") || strings.HasSuffix(ct, "/json"):
		return BodyJSON
	case ct == "application/x-www-form-urlencoded":
		return BodyURLEncoded
	case strings.HasPrefix(ct, "multipart/"):
		return BodyMultipart
	case s.IsFile():
		return BodyBinary
	case ct == "application/xml" || ct == "text/xml" || strings.HasSuffix(ct, "+xml"):
		return BodyXML
	case strings.HasPrefix(ct, "text/"), ct == "application/javascript", ct == "application/yaml",
		ct == "application/x-yaml", ct == "application/graphql", ct == "application/sql", ct == "application/x-ndjson",
		ct == "application/jsonl", ct == "application/csv":
		return BodyText
	}
	return BodyBinary
}

// mediaType returns a content type's media type, lower case, without parameters.
func mediaType(ct string) string {
	ct, _, _ = strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(ct))
}
