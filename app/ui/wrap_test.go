package ui

import (
	"strings"
	"testing"
)

func TestBreakPoints(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"a short token stays whole", "/v1/projects", []string{"/v1/projects"}},
		{"a long URL breaks after its separators, :// kept whole",
			"http://127.0.0.1:8133/proxy/pagination/cursor/items/?cursor=cD0y&page_size=5",
			[]string{"http://", "127.", "0.", "0.", "1:", "8133/", "proxy/", "pagination/", "cursor/", "items/?", "cursor=", "cD0y&", "page_size=", "5"}},
		{"words inside stay whole", "curl -X POST http://localhost:8080/proxy/script/v1/scripts/AKfycbyXq1h8lT6:run \\",
			[]string{"curl -X POST http://", "localhost:", "8080/", "proxy/", "script/", "v1/", "scripts/", "AKfycbyXq1h8lT6:", "run \\"}},
		{"a separator at a token's end is not a break", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/ b", []string{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/ b"}},
		{"a dotted name and a fragment", "http://schema.org/itemListElement#x", []string{"http://", "schema.", "org/", "itemListElement#", "x"}},
		{"escapes in a JSON string", `"\u003chtml\u003e\u003cbody\u003eInvoices"`, []string{`"`, `\u003chtml`, `\u003e`, `\u003cbody`, `\u003eInvoices"`}},
		{"empty", "", []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := BreakPoints(tt.in)
			if strings.Join(got, "") != tt.in {
				t.Errorf("joined: got %q; want %q", strings.Join(got, ""), tt.in)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("got %q; want %q", got, tt.want)
			}
		})
	}
}
