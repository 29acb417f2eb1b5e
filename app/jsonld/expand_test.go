package jsonld

import (
	"reflect"
	"strings"
	"testing"
)

// googleContext is the Knowledge Graph Search API's @context.
const googleContext = `{"@vocab":"http://schema.org/","goog":"http://schema.googleapis.com/","resultScore":"goog:resultScore","detailedDescription":"goog:detailedDescription","EntitySearchResult":"goog:EntitySearchResult","kg":"http://g.co/kg"}`

// flat lists "key=IRI" for every property, "@id=IRI" and "@type=IRI" of
// every node of v, depth first, so tests can compare whole expansions.
func flat(v Value) []string {
	var out []string
	var walk func(Value)
	walk = func(v Value) {
		for _, x := range v.all() {
			if x.Kind == String && x.IRI != "" {
				out = append(out, "value="+x.IRI)
			}
			if x.Kind == Array {
				walk(x)
			}
			n := x.Node
			if n == nil {
				continue
			}
			if n.ID != nil {
				out = append(out, "@id="+n.ID.IRI)
			}
			for _, t := range n.Types {
				out = append(out, "@type="+t.IRI)
			}
			for _, p := range n.Properties {
				out = append(out, p.Term+"="+p.IRI)
				walk(p.Value)
			}
		}
	}
	walk(v)
	return out
}

func TestExpand(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		{"google context", `{"@context":` + googleContext + `,"@type":"ItemList","itemListElement":[{"@type":"EntitySearchResult","result":{"@id":"kg:/m/0dl567","name":"Taylor Swift","@type":["Thing","Person"]},"resultScore":4850}]}`,
			[]string{"@type=http://schema.org/ItemList", "itemListElement=http://schema.org/itemListElement",
				"@type=http://schema.googleapis.com/EntitySearchResult", "result=http://schema.org/result",
				"@id=http://g.co/kg/m/0dl567", "@type=http://schema.org/Thing", "@type=http://schema.org/Person",
				"name=http://schema.org/name", "resultScore=http://schema.googleapis.com/resultScore"}},
		{"prefix defined after its use", `{"@context":{"score":"ex:score","ex":"http://example.org/ns#"},"score":1}`,
			[]string{"score=http://example.org/ns#score"}},
		{"term to term", `{"@context":{"ex":"http://example.org/","a":"ex:a","b":"a"},"b":1}`,
			[]string{"b=http://example.org/a"}},
		{"no vocab: unmapped key", `{"@context":{"name":"http://schema.org/name"},"name":"x","other":1}`,
			[]string{"name=http://schema.org/name", "other="}},
		{"term mapped to null", `{"@context":{"@vocab":"http://schema.org/","secret":null},"secret":1,"name":"x"}`,
			[]string{"secret=", "name=http://schema.org/name"}},
		{"absolute IRI key", `{"@context":{"@vocab":"http://schema.org/"},"http://example.org/p":1}`,
			[]string{"http://example.org/p=http://example.org/p"}},
		{"expanded term definition with @id coercion", `{"@context":{"@vocab":"http://schema.org/","ex":"http://example.org/","knows":{"@id":"ex:knows","@type":"@id"}},"knows":"ex:bob"}`,
			[]string{"knows=http://example.org/knows", "value=http://example.org/bob"}},
		{"@base for relative @id", `{"@context":{"@base":"http://example.org/people/","@vocab":"http://schema.org/"},"@id":"alice","name":"Alice"}`,
			[]string{"@id=http://example.org/people/alice", "name=http://schema.org/name"}},
		{"blank node id", `{"@context":{"@vocab":"http://schema.org/"},"@id":"_:b0","name":"x"}`,
			[]string{"@id=_:b0", "name=http://schema.org/name"}},
		{"nested context", `{"@context":{"@vocab":"http://schema.org/"},"a":{"@context":{"@vocab":"http://example.org/"},"b":1},"c":2}`,
			[]string{"a=http://schema.org/a", "b=http://example.org/b", "c=http://schema.org/c"}},
		{"array context and null reset", `{"@context":[{"@vocab":"http://schema.org/"},null,{"x":"http://example.org/x"}],"x":1,"y":2}`,
			[]string{"x=http://example.org/x", "y="}},
		{"vocab as compact IRI", `{"@context":{"s":"http://schema.org/","@vocab":"s:"},"name":"x"}`,
			[]string{"name=http://schema.org/name"}},
		{"language-tagged values", `{"@context":{"@vocab":"http://schema.org/"},"name":[{"@language":"fr","@value":"Allemagne"}]}`,
			[]string{"name=http://schema.org/name"}},
	}
	for _, tt := range tests {
		d, err := Expand([]byte(tt.doc))
		if err != nil {
			t.Errorf("%s: Expand: %v", tt.name, err)
			continue
		}
		if got := flat(d.Root); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

func TestExpandContextList(t *testing.T) {
	d, err := Expand([]byte(`{"@context":` + googleContext + `}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []TermDef{
		{"@vocab", "http://schema.org/", "http://schema.org/"},
		{"goog", "http://schema.googleapis.com/", "http://schema.googleapis.com/"},
		{"resultScore", "goog:resultScore", "http://schema.googleapis.com/resultScore"},
		{"detailedDescription", "goog:detailedDescription", "http://schema.googleapis.com/detailedDescription"},
		{"EntitySearchResult", "goog:EntitySearchResult", "http://schema.googleapis.com/EntitySearchResult"},
		{"kg", "http://g.co/kg", "http://g.co/kg"},
	}
	if !reflect.DeepEqual(d.Context, want) {
		t.Errorf("got %v; want %v", d.Context, want)
	}
}

func TestExpandErrorsAndWarnings(t *testing.T) {
	tests := []struct {
		name        string
		doc         string
		wantErr     string
		wantWarning string
	}{
		{"not JSON", `{"a":`, "decoding JSON", ""},
		{"trailing data", `{} {}`, "data after the top-level value", ""},
		{"cyclic terms", `{"@context":{"a":"b:x","b":"a:y"},"a":1}`, "cyclic IRI mapping", ""},
		{"bad vocab", `{"@context":{"@vocab":5}}`, "invalid @vocab", ""},
		{"bad term", `{"@context":{"a":5}}`, "invalid definition of term", ""},
		{"remote context", `{"@context":"https://schema.org/","name":"x"}`, "", "not loaded"},
	}
	for _, tt := range tests {
		d, err := Expand([]byte(tt.doc))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && !strings.Contains(got, tt.wantErr) {
			t.Errorf("%s: got error %q; want %q", tt.name, got, tt.wantErr)
		}
		if tt.wantWarning != "" && (d == nil || len(d.Warnings) == 0 || !strings.Contains(d.Warnings[0], tt.wantWarning)) {
			t.Errorf("%s: got %+v; want a warning containing %q", tt.name, d, tt.wantWarning)
		}
	}
}
