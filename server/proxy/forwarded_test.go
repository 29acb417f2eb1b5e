package proxy

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestForwardedTellsOnlyTheSandboxWhereItIsMounted(t *testing.T) {
	browserSent := http.Header{"X-Forwarded-Host": {"evil.example"}, "X-Forwarded-For": {"198.51.100.7"}}
	tests := []struct {
		name       string
		forwarded  bool
		publicURL  string
		wantProto  string
		wantHost   string // "" means the harness's own host
		wantPrefix string
	}{
		{"a real API is told nothing", false, "", "", "-", ""},
		{"a sandbox learns the request's host", true, "", "http", "", "/proxy/chat"},
		{"a sandbox learns the public URL", true, "https://loupe.example.com/tools/", "https", "loupe.example.com", "/tools/proxy/chat"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, func(c *Config) {
				c.APIs["chat"].Forwarded = tt.forwarded
				if tt.publicURL != "" {
					c.PublicURL, _ = url.Parse(tt.publicURL)
				}
			})
			if resp, _ := h.do(t, "GET", "/proxy/chat/v1/stream", nil, browserSent); resp.StatusCode != 200 {
				t.Fatalf("status: got %d; want 200", resp.StatusCode)
			}
			e := h.backend.seen()
			wantHost := tt.wantHost
			switch wantHost {
			case "":
				wantHost = strings.TrimPrefix(h.URL, "http://")
			case "-":
				wantHost = ""
			}
			if got := e.Header.Get("X-Forwarded-Proto"); got != tt.wantProto {
				t.Errorf("X-Forwarded-Proto: got %q; want %q", got, tt.wantProto)
			}
			if got := e.Header.Get("X-Forwarded-Host"); got != wantHost {
				t.Errorf("X-Forwarded-Host: got %q; want %q", got, wantHost)
			}
			if got := e.Header.Get("X-Forwarded-Prefix"); got != tt.wantPrefix {
				t.Errorf("X-Forwarded-Prefix: got %q; want %q", got, tt.wantPrefix)
			}
			if got := e.Header.Get("X-Forwarded-For"); got != "" {
				t.Errorf("X-Forwarded-For: got %q; want the browser's address kept from the upstream", got)
			}
		})
	}
}
