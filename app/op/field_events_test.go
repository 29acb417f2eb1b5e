package op

import (
	"encoding/json"
	"testing"

	"loupe/app/catalog"
)

func TestToggleValue(t *testing.T) {
	optional := &catalog.Parameter{Name: "pretty", In: "query", Schema: &catalog.Schema{Type: "boolean"}}
	defTrue := &catalog.Parameter{Name: "wait", In: "query", Schema: &catalog.Schema{Type: "boolean", Default: json.RawMessage("true")}}
	required := &catalog.Parameter{Name: "devMode", In: "query", Required: true, Schema: &catalog.Schema{Type: "boolean"}}
	tests := []struct {
		name string
		p    *catalog.Parameter
		on   bool
		want string
	}{
		{"an optional switch turned on sends true", optional, true, "true"},
		{"an optional switch turned back off sends nothing", optional, false, ""},
		{"a switch whose default is true sends false when off", defTrue, false, "false"},
		{"and nothing once back on, at its default", defTrue, true, ""},
		{"a required switch always sends its value", required, false, "false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := toggleValue(tt.p, 0, tt.on); got != tt.want {
				t.Errorf("got %q; want %q", got, tt.want)
			}
		})
	}
}

func TestAtPointer(t *testing.T) {
	doc := map[string]any{"messages": []any{map[string]any{"content": "hi", "n": 2.0}}, "a/b": "slash"}
	for _, tc := range []struct {
		ptr, want string
		ok        bool
	}{
		{"/messages/0/content", "hi", true},
		{"/messages/0/n", "2", true},
		{"/a~1b", "slash", true},
		{"/messages/1/content", "", false},
		{"/messages/x", "", false},
		{"/missing", "", false},
	} {
		if got, ok := AtPointer(doc, tc.ptr); got != tc.want || ok != tc.ok {
			t.Errorf("AtPointer(%s): got %q, %v; want %q, %v", tc.ptr, got, ok, tc.want, tc.ok)
		}
	}
}
