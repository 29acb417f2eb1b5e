package snippet

import (
	"os/exec"
	"strings"
	"testing"

	"loupe/app/catalog"
	"loupe/app/fetch"
	"loupe/app/request"
)

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "''"},
		{"plain/path-1.0", "plain/path-1.0"},
		{"a b", "'a b'"},
		{"it's", `'it'\''s'`},
		{`$HOME "x" \n`, `'$HOME "x" \n'`},
		{"a&b;c|d", "'a&b;c|d'"},
		{"line\nbreak", "'line\nbreak'"},
	}
	for _, tt := range tests {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestQuoteInAShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, s := range []string{"it's a \"test\"", "$(rm -rf /) `x` \\ ; & | * ? ~", "'''", "ünï\ncode"} {
		out, err := exec.Command(sh, "-c", "printf %s "+Quote(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("sh printed %q (%v), want %q", out, err, s)
		}
	}
}

func TestCurl(t *testing.T) {
	req := &request.Request{Method: "POST", URL: "/proxy/chat/v1/chat/completions?x=a%20b",
		Headers: []fetch.Header{{Name: "Content-Type", Value: "application/json"}},
		Body:    []byte(`{"content":"it's"}`)}
	got := Curl("http://localhost:8080", req, []Credential{{In: "header", Name: "Authorization", Value: "Bearer " + HeldValue}})
	want := "# The Loupe proxy adds the credential (Authorization); it never reaches the browser.\n" +
		"curl -X POST 'http://localhost:8080/proxy/chat/v1/chat/completions?x=a%20b' \\\n" +
		"  -H 'Content-Type: application/json' \\\n" +
		`  --data-raw '{"content":"it'\''s"}'`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	get := Curl("http://h", &request.Request{Method: "GET", URL: "/proxy/x/a"}, nil)
	if get != "curl http://h/proxy/x/a" {
		t.Fatalf("GET: %s", get)
	}
}

func TestHeld(t *testing.T) {
	api := &catalog.API{Security: []catalog.SecurityScheme{
		{Name: "apiKey", Type: "apiKey", In: "query", ParamName: "key"},
		{Name: "oauth", Type: "oauth2"},
		{Name: "basic", Type: "http", Scheme: "basic"},
	}}
	if got := Held(api, &catalog.Operation{}); len(got) != 1 || got[0].String() != "key="+HeldValue {
		t.Errorf("API default: %v", got)
	}
	op := &catalog.Operation{Security: []catalog.SecurityRequirement{{Schemes: []catalog.SchemeScopes{{Scheme: "oauth"}}}}}
	if got := Held(api, op); len(got) != 1 || got[0].String() != "Authorization: Bearer "+HeldValue {
		t.Errorf("operation oauth: %v", got)
	}
	op.Security[0].Schemes[0].Scheme = "basic"
	if got := Held(api, op); !strings.HasPrefix(got[0].Value, "Basic ") {
		t.Errorf("basic: %v", got)
	}
	if got := Held(&catalog.API{}, op); got != nil {
		t.Errorf("no schemes: %v", got)
	}
}
