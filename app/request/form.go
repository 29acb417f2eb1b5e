package request

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"strings"

	"loupe/app/catalog"
	"loupe/app/fetch"
)

// A form body (application/x-www-form-urlencoded or multipart/form-data) is held in the form
// as the JSON object of its fields' values, in the order the user gave them: what a
// walkthrough's payload is, and what the permalink carries. A file is named in it by FileRef;
// its bytes are in State.Files. This file encodes such an object as the media type and the
// body's encoding object say.

// Part is one part of a multipart body, as it was sent: for the preview and the snippets.
type Part struct {
	// Name is the field's name.
	Name string
	// Value is a field's text (an object's or an array's JSON); empty for a file.
	Value string
	// FileName is the file's name; empty for a field that is not a file.
	FileName string
	// ContentType is the part's Content-Type; empty when it has none.
	ContentType string
	// Headers are the part's other headers (the encoding object's).
	Headers []fetch.Header
	// Size is the part's length in bytes.
	Size int
}

// PartHeaderKey is the State.Params key of a multipart part's documented header (the
// encoding object's headers): "part:<field>:<header>".
func PartHeaderKey(field, header string) string { return "part:" + field + ":" + header }

// urlencoded writes a form object as application/x-www-form-urlencoded, each field as its
// encoding says (style form, exploded, by default; deepObject as name[key]=value; a field
// with a JSON content type as its JSON text).
func urlencoded(b *catalog.RequestBody, form Object) ([]byte, []Pair) {
	var pieces []string
	for _, m := range form {
		if m.Value == nil {
			continue
		}
		enc := encodingOf(b, m.Name)
		ser := enc.Serialization()
		var v any
		switch t := m.Value.(type) {
		case Object:
			if name, ok := fileRefOf(t); ok {
				v = name
			} else if enc != nil && isJSONType(enc.ContentType) {
				v = scalarText(t)
			} else {
				v = t
			}
		case []any:
			if ser.Style == catalog.StyleDeepObject {
				deepPairs(m.Name, t, func(s string) string { return queryEscape(s, ser.AllowReserved) }, &pieces)
				continue
			}
			if enc != nil && isJSONType(enc.ContentType) {
				v = scalarText(t)
				break
			}
			items := make([]string, len(t))
			for i, e := range t {
				items[i] = scalarText(e)
			}
			v = items
		default:
			v = scalarText(t)
		}
		pieces = append(pieces, queryPairs(m.Name, v, ser)...)
	}
	text := strings.Join(pieces, "&")
	return []byte(text), decodePairs(pieces)
}

// decodePairs unescapes name=value pieces.
func decodePairs(pieces []string) []Pair {
	var out []Pair
	for _, p := range pieces {
		n, v, _ := strings.Cut(p, "=")
		un, _ := url.QueryUnescape(n)
		uv, err := url.QueryUnescape(v)
		if err != nil {
			uv = v
		}
		out = append(out, Pair{un, uv})
	}
	return out
}

// multipartBody writes a form object as multipart/form-data: a part per field, per item of an
// array field, a file's bytes with its name, an object as JSON. The boundary is made from the
// parts' bytes, so the same form always gives the same body. Missing files are reported (as
// messages by field) and sent empty.
func multipartBody(b *catalog.RequestBody, form Object, st State) (body []byte, boundary string, parts []Part, missing []FieldError) {
	type raw struct {
		head Part
		data []byte
	}
	var raws []raw
	var add func(name string, v any, index int)
	add = func(name string, v any, index int) {
		enc := encodingOf(b, name)
		s := fieldSchema(b.Schema, name)
		if index >= 0 && s != nil && s.Type == "array" {
			s = s.Items
		}
		p := Part{Name: name}
		var data []byte
		switch t := v.(type) {
		case nil:
			return
		case []any:
			if index < 0 {
				for i, e := range t {
					add(name, e, i)
				}
				return
			}
			data, _ = json.Marshal(t)
			p.Value, p.ContentType = string(data), partContentType(enc, s, nil, true)
		case Object:
			if fname, ok := fileRefOf(t); ok {
				f, msg := fileFor(st, FilePointer(name, index), fname)
				if msg != "" {
					missing = append(missing, FieldError{Key: BodyKey, Path: name, Message: msg})
				}
				data, p.FileName, p.ContentType = f.Data, f.Name, partContentType(enc, s, &f, false)
				break
			}
			data, _ = json.Marshal(t)
			p.Value, p.ContentType = string(data), partContentType(enc, s, nil, true)
		default:
			text := scalarText(t)
			data = []byte(text)
			if s.IsFile() { // a file given as its text (a walkthrough's payload)
				f := File{Name: name}
				p.FileName, p.ContentType = name, partContentType(enc, s, &f, false)
			} else {
				p.Value, p.ContentType = text, partContentType(enc, s, nil, false)
			}
		}
		hs := PartHeaders(b, name)
		for i := range hs {
			if v := partHeaderValue(st, name, &hs[i]); v != "" {
				p.Headers = append(p.Headers, fetch.Header{Name: hs[i].Name, Value: v})
			}
		}
		p.Size = len(data)
		raws = append(raws, raw{p, data})
	}
	for _, m := range form {
		add(m.Name, m.Value, -1)
	}
	// The boundary is a hash of the parts: it cannot occur in them, and it does not change
	// while the form does not.
	sum := sha256.New()
	for _, r := range raws {
		sum.Write([]byte(r.head.Name + "\x00" + r.head.FileName + "\x00" + r.head.ContentType + "\x00"))
		sum.Write(r.data)
	}
	boundary = "LoupeFormBoundary" + hex.EncodeToString(sum.Sum(nil))[:24]
	var out bytes.Buffer
	for _, r := range raws {
		out.WriteString("--" + boundary + "\r\n")
		out.WriteString(`Content-Disposition: form-data; name="` + quoteParam(r.head.Name) + `"`)
		if r.head.FileName != "" {
			out.WriteString(`; filename="` + quoteParam(r.head.FileName) + `"`)
		}
		out.WriteString("\r\n")
		if r.head.ContentType != "" {
			out.WriteString("Content-Type: " + r.head.ContentType + "\r\n")
		}
		for _, h := range r.head.Headers {
			out.WriteString(h.Name + ": " + h.Value + "\r\n")
		}
		out.WriteString("\r\n")
		out.Write(r.data)
		out.WriteString("\r\n")
		parts = append(parts, r.head)
	}
	out.WriteString("--" + boundary + "--\r\n")
	return out.Bytes(), boundary, parts, missing
}

// quoteParam escapes a Content-Disposition name or filename as browsers do (WHATWG's
// multipart/form-data encoding): a quote as %22, CR and LF as %0D and %0A.
func quoteParam(s string) string {
	return strings.NewReplacer(`"`, "%22", "\r", "%0D", "\n", "%0A").Replace(s)
}

// encodingOf returns the encoding object of a form field, or nil.
func encodingOf(b *catalog.RequestBody, name string) *catalog.Encoding {
	if e, ok := b.Encoding[name]; ok {
		return &e
	}
	return nil
}

// isJSONType reports whether a content type is JSON.
func isJSONType(ct string) bool {
	return catalog.BodyKind(ct, nil) == catalog.BodyJSON && strings.TrimSpace(ct) != ""
}
