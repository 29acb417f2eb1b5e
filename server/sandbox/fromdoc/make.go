package fromdoc

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/pb33f/libopenapi/datamodel/high/base"
)

// bodySchema returns a response's schema for a media type: as plain values, where it is in the
// document (its $ref, or a JSON pointer to it), and the model's proxy the checker compiles.
func (d *Document) bodySchema(o *operation, code, media string) (any, string, *base.SchemaProxy) {
	resp := o.response(code)
	if resp == nil || resp.Content == nil {
		return nil, "", nil
	}
	mt := resp.Content.GetOrZero(media)
	if mt == nil {
		return nil, "", nil
	}
	raw := obj(obj(o.rawResponse(d.root, code)["content"])[media])["schema"]
	return raw, schemaPlace(raw, o.place("responses", code, "content", media, "schema")), mt.Schema
}

// requestSchema is bodySchema for the request body.
func (d *Document) requestSchema(o *operation, media string) (any, string, *base.SchemaProxy) {
	rb := o.model.RequestBody
	if rb == nil || rb.Content == nil || rb.Content.GetOrZero(media) == nil {
		return nil, "", nil
	}
	body, _, _ := deref(d.root, o.raw["requestBody"])
	raw := obj(obj(obj(body)["content"])[media])["schema"]
	return raw, schemaPlace(raw, o.place("requestBody", "content", media, "schema")), rb.Content.GetOrZero(media).Schema
}

// schemaPlace names a schema: its $ref, else where it is.
func schemaPlace(raw any, where string) string {
	if ref := str(obj(raw), "$ref"); ref != "" {
		return ref
	}
	return where
}

// place is a JSON pointer into the operation: #/paths/~1pets/get/responses/200.
func (o *operation) place(steps ...string) string {
	esc := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1") }
	p := "#/paths/" + esc(o.Path) + "/" + strings.ToLower(o.Method)
	for _, s := range steps {
		p += "/" + esc(s)
	}
	return p
}

// makeValue makes a value for a schema that its checker accepts, trying each of the attempts
// in turn. It fails with an *unsatisfiable error naming the schema when none validates.
func (d *Document) makeValue(raw any, at string, sp *base.SchemaProxy, seed uint64, dir Direction) (any, error) {
	if raw == nil {
		return nil, nil
	}
	var first error
	for i, c := range attempts {
		v, err := newGen(d.root, seed+uint64(i)*0x9e37, dir, c).value(raw, at)
		if err == nil {
			switch cerr := d.checks.checkValue(sp, v); {
			case cerr == nil, errors.Is(cerr, errUncheckable):
				return v, nil
			default:
				err = &unsatisfiable{Schema: at, Msg: "no value made for it validates: " + cerr.Error()}
			}
		}
		if first == nil {
			first = err
		}
		var u *unsatisfiable
		if errors.As(err, &u) && !strings.Contains(u.Msg, "validates") && i > 0 {
			break // the schema itself says no: trying again will not help
		}
	}
	return nil, first
}

// unsatisfiableProblem is the 500 answered instead of a body that would break its schema.
func unsatisfiableProblem(o *operation, code, media string, err error) *problem {
	var u *unsatisfiable
	where := "the " + code + " " + media + " response of " + o.ID
	if errors.As(err, &u) {
		return &problem{Status: http.StatusInternalServerError, Title: "Unsatisfiable schema",
			Detail: fmt.Sprintf("The sandbox cannot answer %s: %s. It answers this rather than a body that breaks the document; fix the schema, or document an example that validates.", where, u.Error())}
	}
	return &problem{Status: http.StatusInternalServerError, Title: "Unsatisfiable schema",
		Detail: fmt.Sprintf("The sandbox cannot answer %s: %v", where, err)}
}

// encode writes a value in a media type: JSON for JSON types, the text itself for a string in
// any other type, XML for XML types, a form for form types.
func encode(media string, v any) ([]byte, error) {
	switch {
	case media == "" || isJSON(media):
		return marshal(v)
	case isXMLType(media):
		return encodeXML(v), nil
	case strings.HasPrefix(strings.ToLower(media), "application/x-www-form-urlencoded"):
		return []byte(encodeForm(v)), nil
	}
	if s, ok := v.(string); ok {
		return []byte(s), nil
	}
	if v == nil {
		return nil, nil
	}
	return marshal(v)
}

// marshal encodes JSON as a person reads it: no HTML escaping.
func marshal(v any) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(strings.TrimSuffix(b.String(), "\n")), nil
}
