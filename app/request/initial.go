package request

import (
	"bytes"
	"encoding/json"
	"strings"

	"loupe/app/catalog"
)

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
	switch b.Kind() {
	case catalog.BodyXML, catalog.BodyText, catalog.BodyBinary:
		return initialText(b)
	case catalog.BodyURLEncoded, catalog.BodyMultipart:
		if form, ok := formExample(b.Example); ok {
			return form
		}
	}
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
			// A file has no value to start from: the user chooses it.
			if p.Required && (p.Schema == nil || !p.Schema.ReadOnly && !IsFileField(p.Schema)) {
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

// initialText is the body an untouched form shows for a text, XML or binary body: the example
// when it is text, an XML body written from the example or the schema, else nothing.
func initialText(b *catalog.RequestBody) string {
	ex := b.Example
	if len(ex) == 0 && b.Schema != nil {
		ex = b.Schema.Example
	}
	var s string
	if len(ex) > 0 && json.Unmarshal(ex, &s) == nil {
		return s
	}
	if b.Kind() != catalog.BodyXML || b.Schema == nil {
		return ""
	}
	var v any
	if len(ex) > 0 {
		v, _ = decodeOrdered(string(ex))
	}
	if v == nil {
		raw, _ := json.Marshal(skeleton(b.Schema, 0))
		v, _ = decodeOrdered(string(raw))
	}
	return XMLText(b.Schema, v)
}

// formExample returns a form body's example as the form holds it (its fields' JSON object,
// indented): the example object, or an example written as urlencoded text taken apart.
func formExample(ex json.RawMessage) (string, bool) {
	var s string
	if len(ex) == 0 || json.Unmarshal(ex, &s) != nil {
		return "", false
	}
	var form Object
	for _, piece := range strings.Split(s, "&") {
		if piece == "" {
			continue
		}
		for _, p := range decodePairs([]string{piece}) {
			form = append(form, Member{p.Name, p.Value})
		}
	}
	if len(form) == 0 {
		return "", false
	}
	out, err := json.MarshalIndent(form, "", "  ")
	return string(out), err == nil
}
