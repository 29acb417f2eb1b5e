package permalink

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/app/request"
)

var op = &catalog.Operation{
	ID: "entities.search", Method: "POST", Path: "/v1/{name}/search",
	Parameters: []catalog.Parameter{
		{Name: "name", In: "path", Required: true, Schema: &catalog.Schema{Type: "string"}},
		{Name: "query", In: "query", Schema: &catalog.Schema{Type: "string"}},
		{Name: "types", In: "query", Repeatable: true, Schema: &catalog.Schema{Type: "array", Items: &catalog.Schema{Type: "string"}}},
		{Name: "body", In: "query", Schema: &catalog.Schema{Type: "string"}},
		{Name: "key", In: "query", Schema: &catalog.Schema{Type: "string"}},
		{Name: "pageToken", In: "query", Schema: &catalog.Schema{Type: "string"}},
		{Name: "X-Trace", In: "header", Schema: &catalog.Schema{Type: "string"}},
		{Name: "Authorization", In: "header", Schema: &catalog.Schema{Type: "string"}},
	},
	Body: &catalog.RequestBody{ContentType: "application/json", Example: json.RawMessage(`{"a":1}`)},
}

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		st   request.State
		want string
	}{
		{"query parameters are bare and readable",
			request.State{Params: map[string][]string{"query:query": {"taylor swift & co=1+1"}}, Body: "{\n  \"a\": 1\n}"},
			"v1&query=taylor+swift+%26+co%3D1%2B1"},
		{"repeatable parameters repeat, other locations are prefixed",
			request.State{Params: map[string][]string{"path:name": {"a/b"}, "query:types": {"Person", "", "Place"}, "header:X-Trace": {"t:1"}, "query:body": {"x"}}, Body: "{\n  \"a\": 1\n}"},
			"v1&path:name=a/b&types=Person&types=Place&query:body=x&header:X-Trace=t:1"},
		{"an indented body is stored compact",
			request.State{Params: map[string][]string{}, Body: "{\n  \"a\": [\n    \"é x\"\n  ]\n}"},
			`v1&json={%22a%22:[%22%C3%A9+x%22]}`},
		{"any other body is stored as typed",
			request.State{Params: map[string][]string{}, Body: `{"a": 2}`},
			`v1&body={%22a%22:+2}`},
		{"a cleared body is kept cleared",
			request.State{Params: map[string][]string{}, Body: ""},
			`v1&body=`},
		{"paging tokens are kept",
			request.State{Params: map[string][]string{"query:pageToken": {"abc"}}, Body: "{\n  \"a\": 1\n}"},
			`v1&pageToken=abc`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Encode(op, tt.st)
			if got != tt.want {
				t.Fatalf("Encode = %q, want %q", got, tt.want)
			}
			back, ok, err := Decode(op, "#"+got)
			if err != nil || !ok {
				t.Fatalf("Decode: %v %v", ok, err)
			}
			if !back.Equal(tt.st) || back.Body != tt.st.Body {
				t.Fatalf("Decode = %#v, want %#v", back, tt.st)
			}
		})
	}
}

func TestCredentialsNeverTravel(t *testing.T) {
	st := request.State{Params: map[string][]string{"query:key": {"SECRET"}, "header:Authorization": {"Bearer SECRET"}, "query:query": {"q"}}}
	frag := Encode(op, st)
	if strings.Contains(frag, "SECRET") {
		t.Fatalf("fragment holds a credential: %q", frag)
	}
	back, ok, err := Decode(op, "v1&key=SECRET&header:Authorization=x&query=q&access_token=zzz")
	if err == nil || !errors.Is(err, ErrOutdated) {
		// access_token is not a parameter of op, but is dropped before the unknown check.
		if err != nil {
			t.Fatalf("Decode: %v", err)
		}
	}
	if !ok || len(back.Params) != 1 || back.Params["query:query"][0] != "q" {
		t.Fatalf("Decode kept %v (ok %v)", back.Params, ok)
	}
}

// TestDecodeRestoresWhatItCan: a link is never all or nothing. Every value that can be read
// and still fits the operation is restored; what cannot be is named in the error.
func TestDecodeRestoresWhatItCan(t *testing.T) {
	tests := []struct {
		name, fragment string
		want           error
		text           string
		params         map[string][]string
		body           string
	}{
		{"a bad escape loses only its pair", "v1&query=%zz&types=Person", ErrMalformed, `cannot read "query=%zz"`,
			map[string][]string{"query:types": {"Person"}}, "{\n  \"a\": 1\n}"},
		{"a pair without = loses only itself", "v1&query&types=A", ErrMalformed, `cannot read "query"`,
			map[string][]string{"query:types": {"A"}}, "{\n  \"a\": 1\n}"},
		{"a body that is not JSON is kept as written", "v1&json={&query=q", ErrMalformed, "not JSON (restored as written)",
			map[string][]string{"query:query": {"q"}}, "{"},
		{"another version is read for what fits", "v7&query=x", ErrOutdated, "another version of Loupe (v7",
			map[string][]string{"query:query": {"x"}}, "{\n  \"a\": 1\n}"},
		{"an unknown parameter is named, the others kept", "v1&limit=5&query=x", ErrOutdated, "this operation has no limit",
			map[string][]string{"query:query": {"x"}}, "{\n  \"a\": 1\n}"},
		{"a parameter the document moved is found under its new location", "v1&X-Trace=t1&header:query=q", nil, "",
			map[string][]string{"header:X-Trace": {"t1"}, "query:query": {"q"}}, "{\n  \"a\": 1\n}"},
		{"both kinds of problem are named", "v1&limit=5&query=%zz&types=B", ErrMalformed, "cannot read",
			map[string][]string{"query:types": {"B"}}, "{\n  \"a\": 1\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, ok, err := Decode(op, tt.fragment)
			if !ok || !reflect.DeepEqual(st.Params, tt.params) || st.Body != tt.body {
				t.Errorf("got %v %q (ok %v); want %v %q", st.Params, st.Body, ok, tt.params, tt.body)
			}
			if tt.want == nil {
				if err != nil {
					t.Errorf("got error %v; want none", err)
				}
				return
			}
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.text) {
				t.Errorf("got error %v; want %v saying %q", err, tt.want, tt.text)
			}
		})
	}
	if _, _, err := Decode(op, "v1&limit=5&query=%zz"); !errors.Is(err, ErrMalformed) || !errors.Is(err, ErrOutdated) {
		t.Errorf("an unknown name and a bad escape: got %v; want both ErrMalformed and ErrOutdated", err)
	}
	if st, ok, err := Decode(op, "#%%%"); ok || !errors.Is(err, ErrMalformed) || st.Params != nil {
		t.Errorf("garbage: got %v %v %v; want no state and ErrMalformed", st, ok, err)
	}
	if _, ok, err := Decode(op, "#"); ok || err != nil {
		t.Fatalf("an empty fragment: %v %v", ok, err)
	}
}

func TestDecodeKeepsTheExampleBody(t *testing.T) {
	st, ok, err := Decode(op, "v1&query=x")
	if err != nil || !ok || st.Body != "{\n  \"a\": 1\n}" {
		t.Fatalf("got %q %v %v", st.Body, ok, err)
	}
}

func TestIsCredential(t *testing.T) {
	for name, want := range map[string]bool{
		"key": true, "Authorization": true, "access_token": true, "token": true, "Cookie": true,
		"password": true, "X-API-Key": true, "api_key": true, "client_secret": true,
		"pageToken": false, "nextPageToken": false, "query": false, "keyword": false, "monkey": false,
	} {
		if got := IsCredential(name); got != want {
			t.Errorf("IsCredential(%q) = %v, want %v", name, got, want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add("v1&query=a&json={}")
	f.Add("v1&%")
	f.Fuzz(func(t *testing.T, s string) {
		st, ok, err := Decode(op, s)
		if err != nil || !ok {
			return
		}
		again, ok, err := Decode(op, Encode(op, st))
		if err != nil || !ok || !reflect.DeepEqual(again.Clone().Keys(), st.Keys()) {
			t.Fatalf("re-decode of %q: %v %v", s, ok, err)
		}
	})
}

func TestCredentials(t *testing.T) {
	got := Credentials("#v1&key=x&query=q&header:Authorization=y&pageToken=z")
	if len(got) != 2 || got[0] != "key" || got[1] != "header:Authorization" {
		t.Fatalf("Credentials = %q", got)
	}
	if got := Credentials("#v1&query=q"); got != nil {
		t.Fatalf("Credentials = %q", got)
	}
}
