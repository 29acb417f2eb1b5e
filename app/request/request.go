// Package request turns what the user typed into an operation's form into a validated HTTP
// request: path parameters substituted and escaped, query parameters encoded (repeatable ones
// repeated, other lists comma-joined), header parameters, and a JSON body checked against the
// operation's schema. Every problem is reported against the field it belongs to.
package request

import (
	"bytes"
	"encoding/json"
	"net/url"
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
	// Body is the request body as text; blank means no body.
	Body string
}

// Key identifies a parameter in a State and in the page: its location and name, "query:limit".
func Key(p *catalog.Parameter) string { return p.In + ":" + p.Name }

// BodyKey is the FieldError key of the request body.
const BodyKey = "body"

// Clone returns a deep copy of s.
func (s State) Clone() State {
	c := State{Body: s.Body, Params: make(map[string][]string, len(s.Params))}
	for k, v := range s.Params {
		c.Params[k] = append([]string(nil), v...)
	}
	return c
}

// Equal reports whether s and o send the same thing: empty values are ignored.
func (s State) Equal(o State) bool {
	if strings.TrimSpace(s.Body) != strings.TrimSpace(o.Body) {
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

// Initial returns the state of an untouched form: required parameters, and those marked
// Prefill, hold their example; others are empty (their default applies), and the body holds
// the documented example.
func Initial(op *catalog.Operation) State {
	st := State{Params: map[string][]string{}}
	for i := range op.Parameters {
		p := &op.Parameters[i]
		if !p.Required && !p.Prefill {
			continue
		}
		ex := p.Example
		if len(ex) == 0 && p.Schema != nil {
			ex = p.Schema.Example
		}
		if vs := exampleValues(ex); len(vs) > 0 {
			st.Params[Key(p)] = vs
		}
	}
	if op.Body != nil {
		st.Body = InitialBody(op.Body)
	}
	return st
}

// InitialBody returns the body an untouched form shows: the example, indented, or a skeleton
// of the schema's required properties.
func InitialBody(b *catalog.RequestBody) string {
	ex := b.Example
	if len(ex) == 0 && b.Schema != nil {
		ex = b.Schema.Example
	}
	if len(ex) == 0 && b.Schema != nil {
		ex, _ = json.Marshal(skeleton(b.Schema, 0))
	}
	if len(ex) == 0 {
		return ""
	}
	var out bytes.Buffer
	if json.Indent(&out, ex, "", "  ") != nil {
		return string(ex)
	}
	return out.String()
}

// skeleton builds a value of schema s from defaults, examples and the first enum value.
func skeleton(s *catalog.Schema, depth int) any {
	if s == nil || depth > 6 {
		return nil
	}
	for _, raw := range []json.RawMessage{s.Example, s.Default, s.Const} {
		if len(raw) > 0 {
			var v any
			if json.Unmarshal(raw, &v) == nil {
				return v
			}
		}
	}
	if len(s.Enum) > 0 {
		var v any
		if json.Unmarshal(s.Enum[0].Value, &v) == nil {
			return v
		}
	}
	switch s.Type {
	case "object":
		var buf bytes.Buffer
		buf.WriteByte('{')
		for _, p := range s.Properties {
			if p.Required && (p.Schema == nil || !p.Schema.ReadOnly) {
				if buf.Len() > 1 {
					buf.WriteByte(',')
				}
				k, _ := json.Marshal(p.Name)
				v, _ := json.Marshal(skeleton(p.Schema, depth+1))
				buf.Write(k)
				buf.WriteByte(':')
				buf.Write(v)
			}
		}
		buf.WriteByte('}')
		return json.RawMessage(buf.Bytes())
	case "array":
		if s.MinItems != nil && *s.MinItems > 0 {
			return []any{skeleton(s.Items, depth+1)}
		}
		return []any{}
	case "string":
		return ""
	case "integer", "number":
		if s.Minimum != nil {
			return *s.Minimum
		}
		return 0
	case "boolean":
		return false
	}
	if len(s.OneOf) > 0 {
		return skeleton(s.OneOf[0], depth+1)
	}
	if len(s.AnyOf) > 0 {
		return skeleton(s.AnyOf[0], depth+1)
	}
	return nil
}

// exampleValues turns a JSON example into form values: a list for an array, one value otherwise.
func exampleValues(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		var vs []string
		for _, item := range list {
			vs = append(vs, Text(item))
		}
		return vs
	}
	if t := Text(raw); t != "" && t != "null" {
		return []string{t}
	}
	return nil
}

// Text returns a JSON scalar as a form shows it: a string unquoted, anything else as written.
func Text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(raw))
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
}

// Pair is one query parameter.
type Pair struct {
	// Name and Value are unescaped.
	Name, Value string
}

// Fetch returns the request as app/fetch sends it.
func (r *Request) Fetch() fetch.Request {
	return fetch.Request{Method: r.Method, URL: r.URL, Headers: r.Headers, Body: r.Body}
}

// Build validates st against op and returns the request to send to base (for example
// "/proxy/entities") or, when anything is wrong, every error found, in form order.
func Build(op *catalog.Operation, base string, st State) (*Request, []FieldError) {
	return build(op, base, st, true)
}

// Preview returns the request the form describes even when it is invalid: values are sent as
// typed, a missing path parameter stays as its {placeholder}, and the body is not checked. It is
// what the request preview shows while the user is still typing.
func Preview(op *catalog.Operation, base string, st State) *Request {
	req, _ := build(op, base, st, false)
	return req
}

func build(op *catalog.Operation, base string, st State, strict bool) (*Request, []FieldError) {
	var errs []FieldError
	req := &Request{Method: op.Method}
	path := op.Path
	var query []string
	for i := range op.Parameters {
		p := &op.Parameters[i]
		key := Key(p)
		vals := trimNumbers(ItemSchema(p), nonEmpty(st.Params[key]))
		if msg := CheckParam(p, vals); msg != "" && strict {
			errs = append(errs, FieldError{Key: key, Message: msg})
			continue
		}
		if len(vals) == 0 {
			continue
		}
		switch p.In {
		case "path":
			esc := make([]string, len(vals))
			for i, v := range vals {
				esc[i] = url.PathEscape(v)
			}
			path = strings.ReplaceAll(path, "{"+p.Name+"}", strings.Join(esc, ","))
		case "query":
			for _, v := range vals {
				req.Query = append(req.Query, Pair{p.Name, v})
			}
			if p.Repeatable || len(vals) == 1 {
				for _, v := range vals {
					query = append(query, url.QueryEscape(p.Name)+"="+url.QueryEscape(v))
				}
			} else {
				esc := make([]string, len(vals))
				for i, v := range vals {
					esc[i] = url.QueryEscape(v)
				}
				query = append(query, url.QueryEscape(p.Name)+"="+strings.Join(esc, ","))
			}
		case "header":
			req.Headers = append(req.Headers, fetch.Header{Name: p.Name, Value: strings.Join(vals, ", ")})
		case "cookie":
			req.Headers = append(req.Headers, fetch.Header{Name: "Cookie", Value: p.Name + "=" + strings.Join(vals, ",")})
		}
	}
	if op.Body != nil {
		text := strings.TrimSpace(st.Body)
		switch {
		case text == "" && op.Body.Required && strict:
			errs = append(errs, FieldError{Key: BodyKey, Message: "required: this operation needs a request body"})
		case text == "":
		default:
			if berrs := CheckBody(op.Body, text); len(berrs) > 0 && strict {
				errs = append(errs, berrs...)
			} else {
				req.Body = []byte(text)
				ct := op.Body.ContentType
				if ct == "" {
					ct = "application/json"
				}
				req.Headers = append(req.Headers, fetch.Header{Name: "Content-Type", Value: ct})
			}
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	req.Path = path
	req.URL = base + path
	if len(query) > 0 {
		req.URL += "?" + strings.Join(query, "&")
	}
	return req, nil
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
