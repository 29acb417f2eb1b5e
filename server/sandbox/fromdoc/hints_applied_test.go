package fromdoc

import (
	"reflect"
	"testing"
)

// TestAppliedHints: the model lists each hint it followed and where it came from; the
// configuration's hint on a collection or operation replaces the document's, and the
// collection's Source says who decided it.
func TestAppliedHints(t *testing.T) {
	d, err := Load("shelter", []byte(hintedDoc))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		conf   map[string]any
		want   []AppliedHint
		source string
	}{
		{"the document's alone", nil, []AppliedHint{
			{From: FromDocument, Kind: "resource", Target: "/animals", Says: "item /animals/{tag}, id tag"},
			{From: FromDocument, Kind: "operation", Target: "adopt", Says: "delete on /animals"},
		}, FromDocument},
		{"the configuration's over the document's", map[string]any{
			"resources":  []any{map[string]any{"collection": "/animals", "item": "/animals/{tag}", "id": "name", "name": "shelter"}},
			"stateless":  []any{"getAnimal"},
			"operations": map[string]any{"adopt": map[string]any{"action": "none"}},
		}, []AppliedHint{
			{From: FromConfiguration, Kind: "resource", Target: "/animals", Says: "named shelter, item /animals/{tag}, id name"},
			{From: FromConfiguration, Kind: "stateless", Target: "getAnimal", Says: "answered from the document alone"},
			{From: FromConfiguration, Kind: "operation", Target: "adopt", Says: "answered from the document alone"},
		}, FromConfiguration},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := ParseHints(tt.conf)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Infer(d, h)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Hints; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got hints %+v; want %+v", got, tt.want)
			}
			if got := m.Resources[0].Source; got != tt.source {
				t.Errorf("got source %q; want %q", got, tt.source)
			}
		})
	}
}
