package script

import (
	"strings"
	"testing"
)

func TestSyntaxProblemIsSaidOnceInWords(t *testing.T) {
	tests := []struct {
		msg  string
		line int
		file string
		want string
	}{
		{"Syntax error: SyntaxError: Unexpected token ; line: 2 file: Code", 2, "Code", "syntax error on line 2 of Code: Unexpected token ;"},
		{"Syntax error: SyntaxError: Unexpected token ; line: 2 file: Code", 2, "", "syntax error on line 2: Unexpected token ;"},
		{"SyntaxError: Unexpected end of input", 0, "", "syntax error: Unexpected end of input"},
	}
	for _, tt := range tests {
		if got := syntaxProblem(tt.msg, tt.line, tt.file); got != tt.want {
			t.Errorf("syntaxProblem(%q): got %q; want %q", tt.msg, got, tt.want)
		}
	}
}

func TestHighlightedNumbersEveryLineAndEscapes(t *testing.T) {
	got := highlighted(wsFile{Name: "Code", Type: "SERVER_JS", Source: "function f() {\n  return '<b>';\n}\n"}, 2)
	if n := strings.Count(got, `<span class="cl`); n != 4 {
		t.Errorf("got %d lines in %s; want 4 (the text ends with a line break)", n, got)
	}
	for _, want := range []string{`<span class="tk-kw">function</span>`, `<span class="cl cl-err">  <span class="tk-kw">return</span>`, `<span class="tk-str">&#39;&lt;b&gt;&#39;</span>`} {
		if !strings.Contains(got, want) {
			t.Errorf("got %s; want it to hold %s", got, want)
		}
	}
}
