package script

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func TestSyntaxChecker(t *testing.T) {
	tests := []struct {
		name, method, body string
		status             int
		want               string
	}{
		{"compiles", "POST", `{"name":"Code","source":"function add(a, b) {\n  return a + b;\n}\n"}`, 200, `{"problem":null}`},
		{"error on line 3", "POST", `{"name":"Util","source":"function f() {\n  var x = 1;\n  return x +;\n}\n"}`, 200,
			`{"problem":{"line":3,"message":"Syntax error: SyntaxError: Unexpected token ; line: 3 file: Util"}}`},
		{"no name", "POST", `{"source":"x"}`, 400, `the body must be JSON`},
		{"not JSON", "POST", `function f(`, 400, `the body must be JSON`},
		{"GET", "GET", ``, 405, `send the file as POST`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			SyntaxChecker().ServeHTTP(rec, httptest.NewRequest(tt.method, SyntaxCheckPath, strings.NewReader(tt.body)))
			if rec.Code != tt.status {
				t.Errorf("status: got %d; want %d", rec.Code, tt.status)
			}
			if got := strings.TrimSpace(rec.Body.String()); !strings.Contains(got, tt.want) {
				t.Errorf("body: got %s; want it to hold %s", got, tt.want)
			}
		})
	}
}

// TestSyntaxCheckAgreesWithUpdateContent: the check answers what updateContent refuses with.
func TestSyntaxCheckAgreesWithUpdateContent(t *testing.T) {
	src := "function f() {\n  return 'open;\n}\n"
	p := CheckSyntax("Code", src)
	if p == nil {
		t.Fatal("got no problem; want the unterminated string")
	}
	if got, want := p.Message, checkSyntax("Code", src); got != want {
		t.Errorf("got %q; want updateContent's %q", got, want)
	}
	if p.Line != 2 {
		t.Errorf("line: got %d; want 2", p.Line)
	}
}
