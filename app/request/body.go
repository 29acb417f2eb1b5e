package request

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"loupe/app/catalog"
	"loupe/app/fetch"
)

// encodedBody is a request body ready to send.
type encodedBody struct {
	data        []byte
	contentType string
	form        []Pair // a urlencoded body's fields
	parts       []Part // a multipart body's parts
}

// buildBody encodes the form's body as the operation's content type says (see Kind): JSON and
// XML checked and sent as typed, a form object as urlencoded or multipart, text as it is, a
// binary body as its file's bytes (or the text typed). It returns nil when no body is sent.
func buildBody(b *catalog.RequestBody, st State, strict bool) (*encodedBody, []FieldError) {
	kind := b.Kind()
	text := st.Body
	if kind != catalog.BodyText && kind != catalog.BodyBinary {
		text = strings.TrimSpace(text)
	}
	if strings.TrimSpace(text) == "" {
		if b.Required && strict {
			return nil, []FieldError{{Key: BodyKey, Message: "required: this operation needs a request body"}}
		}
		return nil, nil
	}
	ct := b.ContentType
	if ct == "" {
		ct = "application/json"
	}
	switch kind {
	case catalog.BodyURLEncoded, catalog.BodyMultipart:
		v, err := decodeOrdered(text)
		form, ok := v.(Object)
		if err != nil || !ok {
			if strict {
				return nil, []FieldError{{Key: BodyKey, Message: "not a form: the fields are written as a JSON object, {\"name\": \"value\"}"}}
			}
			return &encodedBody{data: []byte(text), contentType: ct}, nil
		}
		if len(form) == 0 && !b.Required {
			// A form without fields is no body, as the form editor writes it: a multipart
			// body of no part is not one (RFC 2046), and no client sends it but a browser.
			return nil, nil
		}
		if strict {
			errs := checkForm(b, form)
			if kind == catalog.BodyMultipart {
				errs = append(errs, checkPartHeaders(b, form, st)...)
			}
			if len(errs) > 0 {
				return nil, errs
			}
		}
		if kind == catalog.BodyURLEncoded {
			data, pairs := urlencoded(b, form)
			return &encodedBody{data: data, contentType: "application/x-www-form-urlencoded", form: pairs}, nil
		}
		data, boundary, parts, missing := multipartBody(b, form, st)
		if strict && len(missing) > 0 {
			return nil, missing
		}
		return &encodedBody{data: data, contentType: "multipart/form-data; boundary=" + boundary, parts: parts}, nil
	case catalog.BodyXML:
		if strict {
			if msg := checkXML(text); msg != "" {
				return nil, []FieldError{{Key: BodyKey, Message: msg}}
			}
		}
	case catalog.BodyBinary:
		if name, ok := FileRefName(text); ok {
			f, msg := fileFor(st, "", name)
			if msg != "" && strict {
				return nil, []FieldError{{Key: BodyKey, Message: msg}}
			}
			return &encodedBody{data: f.Data, contentType: concreteType(ct, f.Type)}, nil
		}
		return &encodedBody{data: []byte(text), contentType: concreteType(ct, "")}, nil
	case catalog.BodyJSON:
		if strict {
			if errs := CheckBody(b, text); len(errs) > 0 {
				return nil, errs
			}
		}
	}
	return &encodedBody{data: []byte(text), contentType: ct}, nil
}

// concreteType is the Content-Type a body of a wildcard media type (image/*, */*) is sent
// with: the file's, else application/octet-stream.
func concreteType(ct, fileType string) string {
	if !strings.Contains(ct, "*") {
		return ct
	}
	if fileType != "" {
		return fileType
	}
	return "application/octet-stream"
}

// checkForm checks a form object against the body's schema; a file stands for a string.
func checkForm(b *catalog.RequestBody, form Object) []FieldError {
	var strip func(v any) any
	strip = func(v any) any {
		switch t := v.(type) {
		case Object:
			if _, ok := fileRefOf(t); ok {
				return ""
			}
			m := make(map[string]any, len(t))
			for _, mem := range t {
				m[mem.Name] = strip(mem.Value)
			}
			return m
		case []any:
			out := make([]any, len(t))
			for i, e := range t {
				out[i] = strip(e)
			}
			return out
		}
		return v
	}
	if b.Schema != nil && b.Schema.Type != "" && b.Schema.Type != "object" {
		// A form's schema that is not an object (a file, in some documents) says nothing
		// of its fields.
		return nil
	}
	errs := check(b.Schema, strip(form), "", 0)
	for i := range errs {
		errs[i].Key = BodyKey
	}
	return errs
}

// checkXML says what makes a text not well-formed XML, with its line, or returns "".
func checkXML(text string) string {
	dec := xml.NewDecoder(strings.NewReader(text))
	dec.Strict = true
	root := 0
	depth := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return fmt.Sprintf("not XML: %s (line %d)", se.Msg, se.Line)
			}
			return "not XML: " + err.Error()
		}
		switch tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				root++
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	switch {
	case root == 0:
		return "not XML: there is no element"
	case root > 1:
		return "not XML: there is more than one root element"
	}
	return ""
}

// bodyHeaders returns the Content-Type header of an encoded body.
func bodyHeaders(e *encodedBody) []fetch.Header {
	return []fetch.Header{{Name: "Content-Type", Value: e.contentType}}
}
