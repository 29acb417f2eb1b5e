package ui

import (
	"net/url"
	"testing"
)

func TestFixEscapes(t *testing.T) {
	for in, want := range map[string]string{
		"http://h/a#%E0%A4%A&&&": "http://h/a#%E0%A4%25A&&&",
		"http://h/a#v1&q=%zz":    "http://h/a#v1&q=%25zz",
		"http://h/a#v1&q=100%":   "http://h/a#v1&q=100%25",
		"http://h/a#v1&q=%2B":    "http://h/a#v1&q=%2B",
	} {
		got := fixEscapes(in)
		if got != want {
			t.Errorf("fixEscapes(%q) = %q, want %q", in, got, want)
		}
		if _, err := url.Parse(got); err != nil {
			t.Errorf("%q does not parse: %v", got, err)
		}
	}
}
