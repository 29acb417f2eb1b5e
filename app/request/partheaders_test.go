package request

import (
	"bytes"
	"strings"
	"testing"

	"loupe/app/catalog"
)

// specUpload is the OpenAPI specification's own example of an encoding object (3.0.3,
// "Encoding Object Example"): profileImage's part documents X-Rate-Limit-Limit; a required
// X-Checksum is added to check what a required part header does.
func specUpload() *catalog.Operation {
	body := &catalog.RequestBody{ContentType: "multipart/form-data", Schema: &catalog.Schema{Type: "object", Properties: []catalog.Property{
		{Name: "id", Schema: &catalog.Schema{Type: "string", Format: "uuid"}},
		{Name: "historyMetadata", Schema: &catalog.Schema{Type: "object"}},
		{Name: "profileImage", Schema: &catalog.Schema{Type: "string", Format: "binary"}},
	}}, Encoding: map[string]catalog.Encoding{
		"historyMetadata": {ContentType: "application/xml; charset=utf-8"},
		"profileImage": {ContentType: "image/png, image/jpeg", Headers: []catalog.Parameter{
			{Name: "X-Rate-Limit-Limit", In: "header", Schema: &catalog.Schema{Type: "integer"}},
			{Name: "Content-Type", In: "header", Schema: &catalog.Schema{Type: "string"}},
			{Name: "X-Checksum", In: "header", Required: true, Schema: &catalog.Schema{Type: "string"}},
		}},
	}}
	return &catalog.Operation{Method: "POST", Path: "/upload", Body: body}
}

// TestPartHeaders: the documented headers of a part are listed (Content-Type excepted), checked
// as header parameters when the part is sent, and written in the part byte for byte.
func TestPartHeaders(t *testing.T) {
	op := specUpload()
	var names []string
	for _, h := range PartHeaders(op.Body, "profileImage") {
		names = append(names, h.Name)
	}
	if got, want := strings.Join(names, ","), "X-Rate-Limit-Limit,X-Checksum"; got != want {
		t.Errorf("PartHeaders = %s; want %s", got, want)
	}
	if hs := PartHeaders(op.Body, "id"); hs != nil {
		t.Errorf("PartHeaders(id) = %v; want none", hs)
	}
	image := `{"id":"a","profileImage":` + FileRef("me.png") + `}`
	files := map[string]File{"/profileImage": {Name: "me.png", Type: "image/png", Data: []byte("PNG")}}
	rate, sum := PartHeaderKey("profileImage", "X-Rate-Limit-Limit"), PartHeaderKey("profileImage", "X-Checksum")
	for _, tt := range []struct {
		name   string
		body   string
		params map[string][]string
		want   string // the error "key: message", or the part's header lines as sent
	}{
		{"sent as typed", image, map[string][]string{rate: {"100"}, sum: {"md5=Q2hlY2sgSW50ZWdyaXR5IQ=="}},
			"X-Rate-Limit-Limit: 100\r\nX-Checksum: md5=Q2hlY2sgSW50ZWdyaXR5IQ==\r\n"},
		{"an optional one left out", image, map[string][]string{sum: {"c"}}, "X-Checksum: c\r\n"},
		{"a required one missing", image, map[string][]string{rate: {"1"}}, sum + ": missing: this parameter is required"},
		{"not an integer", image, map[string][]string{rate: {"ten"}, sum: {"c"}}, rate + ": not an integer"},
		{"a line break", image, map[string][]string{sum: {"c\r\nX-Evil: 1"}}, sum + ": a header value cannot hold a line break"},
		{"the part not sent", `{"id":"a"}`, nil, ""},
	} {
		req, errs := Build(op, "", State{Body: tt.body, Params: tt.params, Files: files})
		got := ""
		if len(errs) > 0 {
			got = errs[0].Key + ": " + errs[0].Message
		} else {
			for _, p := range req.Parts {
				for _, h := range p.Headers {
					got += h.Name + ": " + h.Value + "\r\n"
				}
			}
			if got != "" && !bytes.Contains(req.Body, []byte("Content-Type: image/png\r\n"+got+"\r\nPNG\r\n")) {
				t.Errorf("%s: the body does not hold the part's headers as listed:\n%q", tt.name, req.Body)
			}
		}
		if !strings.HasPrefix(got, tt.want) || (tt.want == "") != (got == "") {
			t.Errorf("%s: got %q; want %q", tt.name, got, tt.want)
		}
	}
	// The preview never writes a line break into the part's headers.
	prev := Preview(op, "", State{Body: image, Params: map[string][]string{sum: {"c\r\nX-Evil: 1"}}, Files: files})
	if bytes.Contains(prev.Body, []byte("X-Evil")) {
		t.Errorf("preview body holds a header typed after a line break: %q", prev.Body)
	}
}

// TestParsePartHeaderKey reads a PartHeaderKey back, and no other key.
func TestParsePartHeaderKey(t *testing.T) {
	for _, tt := range []struct{ key, want string }{
		{PartHeaderKey("profileImage", "X-Rate"), "profileImage|X-Rate"},
		{PartHeaderKey("a:b", "X-Rate"), "a:b|X-Rate"},
		{"header:X-Rate", "not a part header"},
		{"part:X-Rate", "not a part header"},
		{"part:f:", "not a part header"},
	} {
		got := "not a part header"
		if f, h, ok := ParsePartHeaderKey(tt.key); ok {
			got = f + "|" + h
		}
		if got != tt.want {
			t.Errorf("ParsePartHeaderKey(%q) = %s; want %s", tt.key, got, tt.want)
		}
	}
	if h := PartHeaderOf(specUpload().Body, PartHeaderKey("profileImage", "X-Checksum")); h == nil || !h.Required {
		t.Errorf("PartHeaderOf = %+v; want the required X-Checksum", h)
	}
}
