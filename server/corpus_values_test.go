package server

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"loupe/app/catalog"
	"loupe/app/request"
)

// This file fills an operation's form as a user would, for the corpus test: each value from
// the document's example or enum where it has one, else one of its type and format, with
// text that exercises escaping (a space, a slash in a path value, a non-ASCII letter).

// sample returns a value of schema s (decoded JSON: map, slice, string, float64, bool).
func sample(s *catalog.Schema, depth int, all bool) any {
	if s == nil || depth > 5 {
		return "x"
	}
	for _, raw := range []json.RawMessage{s.Example, s.Default, s.Const} {
		var v any
		if len(raw) > 0 && json.Unmarshal(raw, &v) == nil && v != nil && request.CheckText(s, request.Text(raw)) == "" && fits(s, v) {
			return v
		}
	}
	if len(s.Enum) > 0 {
		var v any
		if json.Unmarshal(s.Enum[0].Value, &v) == nil && v != nil {
			return v
		}
	}
	if len(s.OneOf) > 0 {
		return sample(s.OneOf[0], depth+1, all)
	}
	if len(s.AnyOf) > 0 {
		return sample(s.AnyOf[0], depth+1, all)
	}
	switch s.Type {
	case "integer":
		n := 1.0
		if s.Minimum != nil && *s.Minimum > n {
			n = *s.Minimum
		}
		if s.ExclusiveMinimum != nil && *s.ExclusiveMinimum >= n {
			n = *s.ExclusiveMinimum + 1
		}
		if s.Maximum != nil && *s.Maximum < n {
			n = *s.Maximum
		}
		return n
	case "number":
		n := 1.5
		if s.Minimum != nil && *s.Minimum > n {
			n = *s.Minimum
		}
		if s.Maximum != nil && *s.Maximum < n {
			n = *s.Maximum
		}
		return n
	case "boolean":
		return true
	case "array":
		n := 1
		if s.MinItems != nil && *s.MinItems > 1 {
			n = int(*s.MinItems)
		}
		out := make([]any, n)
		for i := range out {
			out[i] = sample(s.Items, depth+1, false)
		}
		return out
	case "object", "":
		if s.Type == "" && len(s.Properties) == 0 {
			return "any é"
		}
		m := map[string]any{}
		for _, p := range s.Properties {
			if (p.Required || all) && (p.Schema == nil || !p.Schema.ReadOnly && !p.Schema.Recursive) {
				m[p.Name] = sample(p.Schema, depth+1, false)
			}
		}
		return m
	}
	return sampleString(s)
}

// sampleString is a string of the schema's format and length.
func sampleString(s *catalog.Schema) string {
	var v string
	switch s.Format {
	case "date-time":
		v = "2024-01-02T03:04:05Z"
	case "date":
		v = "2024-01-02"
	case "uuid":
		v = "0b0f1c2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f"
	case "email":
		v = "ann@example.com"
	case "uri", "url":
		v = "https://example.com/a b"
	case "byte":
		v = "aGVsbG8="
	case "ipv4":
		v = "192.0.2.1"
	default:
		v = "a b é"
		if s.Pattern != "" {
			v = matching(s.Pattern)
		}
	}
	if s.MaxLength != nil && int64(len(v)) > *s.MaxLength {
		v = strings.Repeat("a", int(*s.MaxLength))
	}
	if s.MinLength != nil && int64(len([]rune(v))) < *s.MinLength {
		v += strings.Repeat("a", int(*s.MinLength)-len([]rune(v)))
	}
	return v
}

// fits reports whether a decoded value is of the schema's type.
func fits(s *catalog.Schema, v any) bool {
	switch v.(type) {
	case string:
		return s.Type == "string" || s.Type == ""
	case float64:
		return s.Type == "number" || s.Type == "integer" || s.Type == ""
	case bool:
		return s.Type == "boolean" || s.Type == ""
	case []any:
		return s.Type == "array"
	case map[string]any:
		return s.Type == "object"
	}
	return false
}

// texts turns a sampled value into a parameter's form values.
func texts(p *catalog.Parameter, v any) []string {
	if p.ContentType != "" {
		b, _ := json.Marshal(v)
		return []string{string(b)}
	}
	switch t := v.(type) {
	case []any:
		out := make([]string, len(t))
		for i, e := range t {
			out[i] = scalar(e)
		}
		return out
	case map[string]any:
		b, _ := json.Marshal(t)
		return []string{string(b)}
	}
	return []string{scalar(v)}
}

func scalar(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(t)
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// fillForm fills an operation's form: its required parameters and the one of the class being
// checked (want, "" for none), a path value with a slash in it where the parameter is free
// text, and a body of its content type, files included.
func fillForm(op *catalog.Operation, want string) request.State {
	st := request.State{Params: map[string][]string{}}
	for i := range op.Parameters {
		p := &op.Parameters[i]
		if !p.Required && request.Key(p) != want {
			continue
		}
		s := p.Schema
		free := p.ContentType == "" && s != nil && s.Type == "string" && len(s.Enum) == 0 && s.Format == "" && s.Pattern == "" && len(s.Example) == 0 && len(p.Example) == 0
		if p.In == "path" && free {
			st.Params[request.Key(p)] = []string{"a b/é"}
			continue
		}
		if len(p.Example) > 0 {
			vs := texts(p, exampleOf(p.Example))
			for i, v := range vs {
				// An example written percent-encoded (Conjur's prod%2Faws%2Fdb): a user types
				// the value itself, which the form encodes.
				if u, err := url.PathUnescape(v); p.In == "path" && err == nil {
					vs[i] = u
				}
			}
			if len(vs) > 0 && request.CheckParam(p, vs) == "" {
				st.Params[request.Key(p)] = vs
				continue
			}
		}
		vs := texts(p, sample(s, 0, false))
		for i, v := range vs {
			if u, err := url.PathUnescape(v); p.In == "path" && err == nil {
				vs[i] = u // as above, for a schema's example
			}
		}
		st.Params[request.Key(p)] = vs
	}
	if op.Body == nil {
		return st
	}
	switch op.Body.Kind() {
	case catalog.BodyURLEncoded, catalog.BodyMultipart:
		form := map[string]any{}
		st.Files = map[string]request.File{}
		if s := op.Body.Schema; s.IsFile() {
			// A form whose schema is a file (noosh.com): one file field.
			form["file"] = json.RawMessage(request.FileRef("note.txt"))
			st.Files[request.FilePointer("file", -1)] = request.File{Name: "note.txt", Data: []byte("bytes")}
		} else if s != nil {
			for _, p := range s.Properties {
				if p.Schema != nil && (p.Schema.ReadOnly || p.Schema.Recursive) {
					continue
				}
				switch {
				case p.Schema.IsFile():
					form[p.Name] = json.RawMessage(request.FileRef("note é.txt"))
					st.Files[request.FilePointer(p.Name, -1)] = request.File{Name: "note é.txt", Type: "text/plain", Data: []byte("file bytes\r\n--not a boundary\r\n")}
				case p.Schema.Type == "array" && p.Schema.Items.IsFile():
					form[p.Name] = []any{json.RawMessage(request.FileRef("a.bin")), json.RawMessage(request.FileRef("b.bin"))}
					st.Files[request.FilePointer(p.Name, 0)] = request.File{Name: "a.bin", Data: []byte{0, 1, 2, 0xff}}
					st.Files[request.FilePointer(p.Name, 1)] = request.File{Name: "b.bin", Type: "application/octet-stream", Data: []byte("b")}
				case p.Required || len(form) < 8:
					form[p.Name] = sample(p.Schema, 1, false)
				}
			}
		}
		b, _ := json.MarshalIndent(form, "", "  ")
		st.Body = string(b)
	case catalog.BodyJSON:
		st.Body = request.InitialBody(op.Body)
	case catalog.BodyXML, catalog.BodyText:
		if st.Body = request.InitialBody(op.Body); strings.TrimSpace(st.Body) == "" {
			st.Body = "<note>text é</note>"
		}
	case catalog.BodyBinary:
		st.Body = request.FileRef("photo.png")
		st.Files = map[string]request.File{"": {Name: "photo.png", Type: "image/png", Data: []byte("\x89PNG\r\n\x1a\n")}}
	}
	return st
}

// jsonBody is a JSON body made from the schema, for an operation whose example does not
// validate.
func jsonBody(op *catalog.Operation) string {
	b, _ := json.MarshalIndent(sample(op.Body.Schema, 0, false), "", "  ")
	return string(b)
}

func exampleOf(raw json.RawMessage) any {
	var v any
	_ = json.Unmarshal(raw, &v)
	return v
}
