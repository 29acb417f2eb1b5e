package request

import (
	"strings"

	"loupe/app/catalog"
)

// A multipart body's encoding object may document headers for a part besides its
// Content-Type (encoding.<field>.headers). The form gives each one an input; what is typed is
// held in State.Params under PartHeaderKey, checked as a header parameter is, and written in
// the part's headers when the part is sent (multipartBody).

// PartHeaders returns the headers a multipart body documents for a field's part, in the
// document's order, Content-Type excepted (the encoding's contentType gives it); nil for a
// body that is not multipart or a field that documents none.
func PartHeaders(b *catalog.RequestBody, field string) []catalog.Parameter {
	if b == nil || b.Kind() != catalog.BodyMultipart {
		return nil
	}
	enc := encodingOf(b, field)
	if enc == nil {
		return nil
	}
	var out []catalog.Parameter
	for _, h := range enc.Headers {
		if !strings.EqualFold(h.Name, "Content-Type") {
			out = append(out, h)
		}
	}
	return out
}

// ParsePartHeaderKey splits a PartHeaderKey into its field and header; ok is false for any
// other key. A header name holds no colon, so a field's may.
func ParsePartHeaderKey(key string) (field, header string, ok bool) {
	rest, found := strings.CutPrefix(key, "part:")
	i := strings.LastIndexByte(rest, ':')
	if !found || i < 0 || i == len(rest)-1 {
		return "", "", false
	}
	return rest[:i], rest[i+1:], true
}

// PartHeaderOf returns the documented part header a PartHeaderKey stands for in b, or nil.
func PartHeaderOf(b *catalog.RequestBody, key string) *catalog.Parameter {
	field, header, ok := ParsePartHeaderKey(key)
	if !ok {
		return nil
	}
	hs := PartHeaders(b, field)
	for i := range hs {
		if hs[i].Name == header {
			return &hs[i]
		}
	}
	return nil
}

// checkPartHeaders returns what is wrong with the documented headers of the parts form sends,
// keyed by PartHeaderKey: a required header left empty, a value its schema refuses, a line
// break (which would end the part's headers).
func checkPartHeaders(b *catalog.RequestBody, form Object, st State) []FieldError {
	var errs []FieldError
	for _, m := range form {
		if m.Value == nil {
			continue
		}
		hs := PartHeaders(b, m.Name)
		for i := range hs {
			h := &hs[i]
			key := PartHeaderKey(m.Name, h.Name)
			vals := trimNumbers(ItemSchema(h), nonEmpty(st.Params[key]))
			if msg := CheckParam(h, vals); msg != "" {
				errs = append(errs, FieldError{Key: key, Message: msg})
				continue
			}
			if v := strings.Join(vals, ","); strings.ContainsAny(v, "\r\n\x00") {
				errs = append(errs, FieldError{Key: key, Message: "a header value cannot hold a line break"})
			}
		}
	}
	return errs
}

// partHeaderValue is the value sent for a part's documented header: its values joined by
// commas, as a header parameter's; "" when none, or when it holds a line break, which would
// end the part's headers (Build says so; the preview leaves such a value out).
func partHeaderValue(st State, field string, h *catalog.Parameter) string {
	v := strings.Join(trimNumbers(ItemSchema(h), nonEmpty(st.Params[PartHeaderKey(field, h.Name)])), ",")
	if strings.ContainsAny(v, "\r\n\x00") {
		return ""
	}
	return v
}
