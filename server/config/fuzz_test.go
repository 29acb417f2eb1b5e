package config

import (
	"os"
	"strings"
	"testing"
)

// FuzzParse: any configuration file, and any environment override, is read into a valid
// configuration or refused with an error naming where (the file, a key or a variable), never
// a panic; a configuration it accepts validates again.
func FuzzParse(f *testing.F) {
	example, err := os.ReadFile("loupe.example.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(example, "")
	f.Add([]byte("server:\n  addr: 0.0.0.0:80\n  access: {mode: users}\n"), "")
	f.Add([]byte("apis:\n  chat: {base_url: 'http://[::1', credential: {send: query}}\n"), "http://x")
	f.Add([]byte("a: &a [*a, *a]\nb: *a\n"), "")
	f.Add([]byte("server:\n  sandbox: {max_sessions: -1}\n  access: {trusted_proxies: [300.0.0.1/8], client_address_header: X-Real-IP}\n"), "")
	f.Fuzz(func(t *testing.T, data []byte, url string) {
		env := func(k string) (string, bool) {
			if k == "LOUPE_CHAT_URL" && url != "" {
				return url, true
			}
			return "", false
		}
		c, err := Parse(data, "fuzz.yaml", env)
		if err != nil {
			if msg := err.Error(); !strings.Contains(msg, "fuzz.yaml") && !strings.Contains(msg, "server.") && !strings.Contains(msg, "apis.") && !strings.Contains(msg, "LOUPE_") {
				t.Fatalf("got %q; want the error to say where", msg)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("an accepted configuration does not validate again: %v", err)
		}
	})
}
