package op

import (
	"strings"
	"testing"
	"time"

	"loupe/app/catalog"
	"loupe/app/ui"
)

func TestErrorMessage(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"a Google error", `{"error":{"code":400,"message":"Invalid value for limit","status":"INVALID_ARGUMENT"}}`, "Invalid value for limit"},
		{"an OpenAI error", `{"error":{"message":"model not found","type":"invalid_request_error"}}`, "model not found"},
		{"an OpenSearch error", `{"error":{"root_cause":[],"type":"index_not_found_exception","reason":"no such index [x]"},"status":404}`, "no such index [x]"},
		{"a REST framework error", `{"detail":"Not found."}`, "Not found."},
		{"a plain error string", `{"error":"no built-in sandbox"}`, "no built-in sandbox"},
		{"a list of errors", `{"errors":[{"message":"first"},{"message":"second"}]}`, "first"},
		{"no message", `{"status":500}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, ok := parseJSON([]byte(tt.body))
			if !ok {
				t.Fatalf("%s does not parse", tt.body)
			}
			if got := errorMessage(root); got != tt.want {
				t.Errorf("errorMessage = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseJSONKeepsKeyOrder(t *testing.T) {
	root, ok := parseJSON([]byte(`{"z":1,"a":[true,null,"s"],"m":{"b":2.5}}`))
	if !ok {
		t.Fatal("does not parse")
	}
	var keys []string
	for _, c := range root.children {
		keys = append(keys, c.key)
	}
	if len(keys) != 3 || keys[0] != "z" || keys[1] != "a" || keys[2] != "m" {
		t.Errorf("keys = %q", keys)
	}
	if n := root.find("a.2"); n == nil || n.text != "s" {
		t.Errorf("find a.2 = %v", n)
	}
	if n := root.find("m.b"); n == nil || n.kind != 'n' || n.text != "2.5" {
		t.Errorf("find m.b = %v", n)
	}
	for _, bad := range []string{`{"a":`, `{} {}`, `text`, ``} {
		if _, ok := parseJSON([]byte(bad)); ok {
			t.Errorf("%q parses", bad)
		}
	}
}

func TestFormatting(t *testing.T) {
	if got := ui.PlainText(`<p>Adds an <code>indices</code> block &amp; more.</p>`); got != "Adds an indices block & more." {
		t.Errorf("plainText = %q", got)
	}
	for n, want := range map[int]string{812: "812 B", 14200: "14.2 kB", 3100000: "3.1 MB"} {
		if got := ui.HumanSize(n); got != want {
			t.Errorf("humanSize(%d) = %q, want %q", n, got, want)
		}
	}
	for d, want := range map[time.Duration]string{38 * time.Millisecond: "38 ms", 1240 * time.Millisecond: "1.24 s", 500 * time.Microsecond: "500 µs"} {
		if got := ui.HumanDuration(d); got != want {
			t.Errorf("humanDuration(%v) = %q, want %q", d, got, want)
		}
	}
	if got, ok := ui.FormatJSON(` {"a":[1]} `); !ok || got != "{\n  \"a\": [\n    1\n  ]\n}" {
		t.Errorf("formatJSON = %q %v", got, ok)
	}
	if got := constraints(nil2()); got != "" {
		t.Errorf("constraints of an empty schema = %q", got)
	}
}

func nil2() *catalog.Schema { return &catalog.Schema{} }

func TestStatusHintSaysWhatToCheck(t *testing.T) {
	tests := []struct {
		status      int
		want, never string
	}{
		{404, "path and query", "check the path parameters"},
		{408, "timed out waiting", "refused"},
		{400, "check the fields", ""},
	}
	for _, tt := range tests {
		got := statusHint(tt.status)
		if !strings.Contains(got, tt.want) || (tt.never != "" && strings.Contains(got, tt.never)) {
			t.Errorf("statusHint(%d) = %q; want it to say %q and never %q", tt.status, got, tt.want, tt.never)
		}
	}
}
