package permalink

import (
	"errors"
	"reflect"
	"testing"

	"loupe/app/catalog"
	"loupe/app/request"
)

// upload is the OpenAPI specification's encoding object example (profileImage's part documents
// X-Rate-Limit-Limit), offered as JSON too, with a part header named like a credential.
var upload = &catalog.Operation{ID: "upload", Method: "POST", Path: "/upload", Body: &catalog.RequestBody{
	ContentType: "application/json", Schema: &catalog.Schema{Type: "object"},
	Media: []catalog.BodyMedia{
		{ContentType: "application/json", Schema: &catalog.Schema{Type: "object"}},
		{ContentType: "multipart/form-data", Schema: &catalog.Schema{Type: "object", Properties: []catalog.Property{
			{Name: "id", Schema: &catalog.Schema{Type: "string"}},
			{Name: "profileImage", Schema: &catalog.Schema{Type: "string", Format: "binary"}},
		}}, Encoding: map[string]catalog.Encoding{"profileImage": {Headers: []catalog.Parameter{
			{Name: "X-Rate-Limit-Limit", In: "header", Schema: &catalog.Schema{Type: "integer"}},
			{Name: "X-Api-Key", In: "header", Schema: &catalog.Schema{Type: "string"}},
		}}}},
	},
}}

// TestPartHeadersTravel: a part's documented header is written in the link and a link
// restores it, whatever the order of its pairs; one named like a credential never travels;
// one the body does not document is named as outdated.
func TestPartHeadersTravel(t *testing.T) {
	rate := request.PartHeaderKey("profileImage", "X-Rate-Limit-Limit")
	st := request.State{BodyType: "multipart/form-data", Body: `{"id":"a"}`, Params: map[string][]string{
		rate: {"100"}, request.PartHeaderKey("profileImage", "X-Api-Key"): {"secret"},
	}}
	got := Encode(upload, st)
	if want := `v1&part:profileImage:X-Rate-Limit-Limit=100&body-type=multipart/form-data&body={%22id%22:%22a%22}`; got != want {
		t.Fatalf("Encode = %q; want %q", got, want)
	}
	for _, frag := range []string{got, `v1&body-type=multipart/form-data&body={%22id%22:%22a%22}&part:profileImage:X-Rate-Limit-Limit=100&part:profileImage:X-Api-Key=k`} {
		back, ok, err := Decode(upload, frag)
		if !ok || err != nil {
			t.Fatalf("Decode(%q): ok %v, err %v", frag, ok, err)
		}
		if want := map[string][]string{rate: {"100"}}; !reflect.DeepEqual(back.Params, want) {
			t.Errorf("Decode(%q) params = %v; want %v", frag, back.Params, want)
		}
		if back.BodyType != "multipart/form-data" || back.Body != `{"id":"a"}` {
			t.Errorf("Decode(%q) body = %s %q", frag, back.BodyType, back.Body)
		}
	}
	// The body sent as JSON documents no part header: none is written.
	if got := Encode(upload, request.State{Params: map[string][]string{rate: {"100"}}, Body: "{}"}); got != "v1" {
		t.Errorf("Encode as JSON = %q; want no part header", got)
	}
	_, ok, err := Decode(upload, "v1&part:photo:X-Rate=1")
	if !ok || !errors.Is(err, ErrOutdated) {
		t.Errorf("an undocumented part header: ok %v, err %v; want outdated", ok, err)
	}
}
