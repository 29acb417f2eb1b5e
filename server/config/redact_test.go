package config

import (
	"strings"
	"testing"
)

// TestConfigErrorsNeverPrintASecret: a base_url or public_url that carries a secret in its
// query, userinfo or fragment is refused with an error that names the mistake but not the secret.
func TestConfigErrorsNeverPrintASecret(t *testing.T) {
	const secret = "sk-LEAK-4f2b/9+Q=="
	tests := []struct{ name, yaml, want string }{
		{"query", "apis:\n  chat:\n    base_url: https://api.example.com/v1?key=" + secret + "\n", "apis.chat.base_url: expected no query"},
		{"fragment", "apis:\n  chat:\n    base_url: https://api.example.com/v1#" + secret + "\n", "apis.chat.base_url: expected no query"},
		{"userinfo", "apis:\n  chat:\n    base_url: https://u:" + secret + "@api.example.com\n    credential: {value: k}\n", "apis.chat.base_url: expected"},
		{"bad scheme with query", "apis:\n  chat:\n    base_url: ftp://api.example.com/?token=" + secret + "\n", "apis.chat.base_url: expected an http or https URL"},
		{"public url userinfo", "server:\n  public_url: https://admin:" + secret + "@loupe.example.com\n", "server.public_url: expected an http or https URL"},
		{"public url query", "server:\n  public_url: https://loupe.example.com/?t=" + secret + "\n", "server.public_url: expected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.yaml), "loupe.yaml", envMap(nil))
			if err == nil {
				t.Fatalf("got no error; want %q", tt.want)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.want) {
				t.Errorf("got %q; want it to contain %q", msg, tt.want)
			}
			for _, part := range []string{secret, "sk-LEAK", "4f2b"} {
				if strings.Contains(msg, part) {
					t.Errorf("got %q; the error prints the secret (%q)", msg, part)
				}
			}
		})
	}
}

func TestRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://api.example.com/v1", "https://api.example.com/v1"},
		{"https://api.example.com/v1?key=abc&x=1", "https://api.example.com/v1?key=REDACTED&x=REDACTED"},
		{"https://u:p@h/x", "https://REDACTED@h/x"},
		{"https://h/#frag", "https://h/#REDACTED"},
		{"ht!tp://%zz?key=abc", "ht!tp://%zz?REDACTED"},
		{"https://u:a/b@h/x?k=v", "https://REDACTED@h/x?REDACTED"},
	}
	for _, tt := range tests {
		if got := redactURL(tt.in); got != tt.want {
			t.Errorf("redactURL(%q): got %q; want %q", tt.in, got, tt.want)
		}
	}
}
