package request

import (
	"encoding/json"
	"strings"
	"testing"

	"loupe/app/catalog"
)

func TestCheckTextSaysHowToWriteIt(t *testing.T) {
	page := &catalog.Schema{Type: "string", Pattern: `^([1-9][0-9]*|last)$`, Default: json.RawMessage(`"1"`)}
	tests := []struct {
		name   string
		s      *catalog.Schema
		v      string
		want   string // in the message; "" for no error
		absent string // never in the message
	}{
		{"a date-time in words", &catalog.Schema{Type: "string", Format: "date-time"}, "yesterday", "not a date-time: write it as RFC 3339", ""},
		{"a date-time", &catalog.Schema{Type: "string", Format: "date-time"}, "2026-01-31T09:30:00Z", "", ""},
		{"a date-time with an offset", &catalog.Schema{Type: "string", Format: "date-time"}, "2026-01-31T09:30:00+02:00", "", ""},
		{"a date", &catalog.Schema{Type: "string", Format: "date"}, "31/01/2026", "not a date", ""},
		{"a page that is not a number", page, "two", "not in the accepted form; for example 1", "[1-9]"},
		{"a page number", page, "2", "", ""},
		{"the last page", page, "last", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CheckText(tt.s, tt.v)
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) || tt.absent != "" && strings.Contains(got, tt.absent) {
				t.Errorf("CheckText(%q) = %q; want %q", tt.v, got, tt.want)
			}
		})
	}
}

func TestNumbersAreSentTrimmed(t *testing.T) {
	op := &catalog.Operation{Method: "GET", Path: "/items/{id}", Parameters: []catalog.Parameter{
		{Name: "id", In: "path", Required: true, Schema: &catalog.Schema{Type: "integer"}},
		{Name: "limit", In: "query", Schema: &catalog.Schema{Type: "integer"}},
		{Name: "ratio", In: "query", Schema: &catalog.Schema{Type: "number"}},
		{Name: "q", In: "query", Schema: &catalog.Schema{Type: "string"}},
	}}
	st := State{Params: map[string][]string{"path:id": {" 3 "}, "query:limit": {" 7 "}, "query:ratio": {"\t0.5"}, "query:q": {" a b "}}}
	req, errs := Build(op, "/proxy/x", st)
	if len(errs) > 0 {
		t.Fatalf("Build: %v", errs)
	}
	if want := "/proxy/x/items/3?limit=7&ratio=0.5&q=+a+b+"; req.URL != want {
		t.Errorf("got %q; want %q (numbers trimmed, a string as typed)", req.URL, want)
	}
	if got := Preview(op, "/proxy/x", st).URL; got != req.URL {
		t.Errorf("the preview: got %q; want what Send sends, %q", got, req.URL)
	}
}
