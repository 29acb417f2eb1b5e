package catalog

import "encoding/json"

// BodyMedia is one media type the document offers for a request body (an entry of its
// content map): what the body is when sent as that type.
type BodyMedia struct {
	// ContentType is the media type's key, such as multipart/form-data.
	ContentType string `json:"contentType"`
	// Schema, Encoding and Example are the media type's own, as RequestBody's fields are.
	Schema   *Schema             `json:"schema,omitempty"`
	Encoding map[string]Encoding `json:"encoding,omitempty"`
	Example  json.RawMessage     `json:"example,omitempty"`
}

// Types returns the content types the body can be sent as, in the document's order: its one
// ContentType when the document offers one.
func (b *RequestBody) Types() []string {
	if b == nil {
		return nil
	}
	if len(b.Media) == 0 {
		return []string{b.ContentType}
	}
	out := make([]string, len(b.Media))
	for i, m := range b.Media {
		out[i] = m.ContentType
	}
	return out
}

// As returns the body as sent with content type ct: b itself when ct is "", b's default or a
// type the document does not offer (a link made before the document changed), else a copy
// holding that media type's schema, encoding and example. b is never changed.
func (b *RequestBody) As(ct string) *RequestBody {
	if b == nil || ct == "" || ct == b.ContentType {
		return b
	}
	for _, m := range b.Media {
		if m.ContentType == ct {
			c := *b
			c.ContentType, c.Schema, c.Encoding, c.Example = m.ContentType, m.Schema, m.Encoding, m.Example
			return &c
		}
	}
	return b
}

// Offers reports whether the body can be sent as content type ct.
func (b *RequestBody) Offers(ct string) bool {
	for _, t := range b.Types() {
		if t == ct {
			return true
		}
	}
	return false
}
