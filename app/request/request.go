// Package request turns what the user typed into an operation's form into a validated HTTP
// request: path, query, header and cookie parameters serialized in every OpenAPI style
// (matrix, label, form, spaceDelimited, pipeDelimited, deepObject, content-encoded, reserved
// expansion), the body encoded as its content type says (JSON checked against the schema,
// form-urlencoded and multipart fields with their files, text, XML, raw bytes), and the form
// edits of those bodies. Every problem is reported against the field it belongs to.
package request

import (
	"sort"
	"strings"

	"loupe/app/catalog"
	"loupe/app/fetch"
)

// State is what the user typed into an operation's form.
type State struct {
	// Params maps a parameter key (see Key) to its values: one for a scalar, any number for a
	// list. A missing key, or only empty values, means the parameter is not sent.
	Params map[string][]string
	// Body is the request body as text; blank means no body. A form body (urlencoded or
	// multipart) is the JSON object of its fields' values; a binary body is the text typed or
	// FileRef of its file. See Kind and buildBody.
	Body string
	// Files holds the bytes of the files the body names (FileRef), by FilePointer. A link
	// never carries them.
	Files map[string]File
	// BodyType is the content type the body is sent as, one of the operation's body's Types;
	// "" means the body's default (catalog.RequestBody.ContentType). See BodyOf.
	BodyType string
}

// BodyOf returns op's request body as st sends it: as st.BodyType, else its default; nil when
// op has no body.
func BodyOf(op *catalog.Operation, st State) *catalog.RequestBody {
	if op == nil || op.Body == nil {
		return nil
	}
	return op.Body.As(st.BodyType)
}

// SetBodyType makes s send op's body as content type ct (its default when ct is "" or the
// default; a type the body does not offer is ignored), the body reset to that type's example
// and its files forgotten: one type's fields are not another's text.
func (s *State) SetBodyType(op *catalog.Operation, ct string) {
	if op == nil || op.Body == nil || (ct != "" && !op.Body.Offers(ct)) {
		return
	}
	if ct == op.Body.ContentType {
		ct = ""
	}
	s.BodyType = ct
	s.Body = InitialBody(op.Body.As(ct))
	s.Files = nil
}

// Key identifies a parameter in a State and in the page: its location and name, "query:limit".
func Key(p *catalog.Parameter) string { return p.In + ":" + p.Name }

// BodyKey is the FieldError key of the request body.
const BodyKey = "body"

// Clone returns a deep copy of s.
func (s State) Clone() State {
	c := State{Body: s.Body, BodyType: s.BodyType, Params: make(map[string][]string, len(s.Params))}
	for k, v := range s.Params {
		c.Params[k] = append([]string(nil), v...)
	}
	if s.Files != nil {
		c.Files = make(map[string]File, len(s.Files))
		for k, f := range s.Files {
			c.Files[k] = f
		}
	}
	return c
}

// Equal reports whether s and o send the same thing: empty values are ignored.
func (s State) Equal(o State) bool {
	if strings.TrimSpace(s.Body) != strings.TrimSpace(o.Body) || s.BodyType != o.BodyType {
		return false
	}
	a, b := s.compact(), o.compact()
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w := b[k]
		if len(v) != len(w) {
			return false
		}
		for i := range v {
			if v[i] != w[i] {
				return false
			}
		}
	}
	return true
}

// compact returns the params without empty values or empty lists.
func (s State) compact() map[string][]string {
	m := map[string][]string{}
	for k, vs := range s.Params {
		var kept []string
		for _, v := range vs {
			if v != "" {
				kept = append(kept, v)
			}
		}
		if len(kept) > 0 {
			m[k] = kept
		}
	}
	return m
}

// Keys returns the keys of the params that hold a value, sorted.
func (s State) Keys() []string {
	m := s.compact()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Request is a validated request, ready to send.
type Request struct {
	// Method is upper case.
	Method string
	// URL is the base, the escaped path and the encoded query.
	URL string
	// Path is the escaped path after the base, without the query.
	Path string
	// Query holds the query parameters in order, unescaped.
	Query []Pair
	// Headers are the header parameters and the body's Content-Type.
	Headers []fetch.Header
	// Body is nil when no body is sent.
	Body []byte
	// Form holds a urlencoded body's fields in order, unescaped; Parts a multipart body's
	// parts. Both are nil for other bodies.
	Form  []Pair
	Parts []Part
}

// Pair is one query parameter.
type Pair struct {
	// Name and Value are unescaped.
	Name, Value string
}

// Fetch returns the request as app/fetch sends it to Loupe's proxy (see ProxyHeaders).
func (r *Request) Fetch() fetch.Request {
	return fetch.Request{Method: r.Method, URL: r.URL, Headers: r.ProxyHeaders(), Body: r.Body}
}

// CookieHeader carries a request's cookie parameters to Loupe's proxy, which sends them
// upstream as the Cookie header: a browser cannot set Cookie itself, and the proxy never
// forwards the browser's own cookies (they are Loupe's).
const CookieHeader = "X-Loupe-Cookie"

// AcceptEncodingHeader carries an operation's documented Accept-Encoding parameter to Loupe's
// proxy, which a browser cannot send either (a forbidden header of fetch).
const AcceptEncodingHeader = "X-Loupe-Accept-Encoding"

// ProxyHeaders returns the headers as they are sent to Loupe's proxy: Cookie as CookieHeader,
// Accept-Encoding as AcceptEncodingHeader. Headers holds them as the upstream receives them,
// for the preview and the snippets.
func (r *Request) ProxyHeaders() []fetch.Header {
	out := make([]fetch.Header, len(r.Headers))
	for i, h := range r.Headers {
		switch {
		case strings.EqualFold(h.Name, "Cookie"):
			h.Name = CookieHeader
		case strings.EqualFold(h.Name, "Accept-Encoding"):
			h.Name = AcceptEncodingHeader
		}
		out[i] = h
	}
	return out
}

func nonEmpty(vs []string) []string {
	var out []string
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			out = append(out, v)
		}
	}
	return out
}

// IsList reports whether a parameter takes several values.
func IsList(p *catalog.Parameter) bool {
	return p.Repeatable || (p.Schema != nil && p.Schema.Type == "array")
}

// ItemSchema returns the schema each value of the parameter is checked against.
func ItemSchema(p *catalog.Parameter) *catalog.Schema {
	if p.Schema != nil && p.Schema.Type == "array" && p.Schema.Items != nil {
		return p.Schema.Items
	}
	if p.Schema == nil {
		return &catalog.Schema{}
	}
	return p.Schema
}
