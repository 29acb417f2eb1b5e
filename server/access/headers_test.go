package access

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestSecurityHeadersSurviveAClearedHeaderMap: a handler that empties its header map (as
// ReverseProxy does after an upstream's 1xx) and sends an informational reply still answers
// with the security headers, and the 1xx is not written.
func TestSecurityHeadersSurviveAClearedHeaderMap(t *testing.T) {
	tests := []struct{ path, csp string }{
		{"/proxy/chat/v1/models", DataCSP},
		{"/sandbox/chat/v1/models", DataCSP},
		{"/preview", PreviewCSP},
		{"/api/chat", AppCSP},
	}
	for _, tt := range tests {
		h := SecurityHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Link", "</x.js>; rel=preload")
			w.WriteHeader(http.StatusEarlyHints)
			clear(w.Header())
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Security-Policy", "script-src *") // an upstream's, on a data path
			_, _ = w.Write([]byte("<script>1</script>"))
		}))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", tt.path, nil))
		if rec.Code != 200 {
			t.Errorf("%s: got status %d; want 200 (the 103 dropped)", tt.path, rec.Code)
		}
		want := tt.csp
		if tt.path == "/api/chat" {
			want = "script-src *" // an app page's handler may set its own (the login page does)
		}
		if got := rec.Header().Get("Content-Security-Policy"); got != want {
			t.Errorf("%s: CSP got %q; want %q", tt.path, got, want)
		}
		if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: nosniff got %q", tt.path, got)
		}
		if got := rec.Header().Get("X-Frame-Options"); got == "" {
			t.Errorf("%s: X-Frame-Options missing", tt.path)
		}
	}
}

// TestSandboxConsentPageKeepsItsPolicy: the script sandbox's consent page is a page with a form,
// not an API answer, so its own policy stays (DataCSP's sandbox would block its form).
func TestSandboxConsentPageKeepsItsPolicy(t *testing.T) {
	const own = "default-src 'none'; form-action 'self'"
	h := SecurityHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", own)
		w.WriteHeader(http.StatusOK)
	}))
	for path, want := range map[string]string{SandboxConsentPath: own, SandboxConsentPath + "/x": DataCSP, "/sandbox/script/oauth/token": DataCSP} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if got := rec.Header().Get("Content-Security-Policy"); got != want {
			t.Errorf("%s: CSP got %q; want %q", path, got, want)
		}
	}
}

// TestWebAppPagesSetTheirOwnPolicy: a deployed web app's pages keep the policy the script
// sandbox sets (its frame of the app's HTML), and an answer there that sets none gets DataCSP.
func TestWebAppPagesSetTheirOwnPolicy(t *testing.T) {
	const own = "default-src 'none'; frame-src 'self'; frame-ancestors 'none'"
	for _, tt := range []struct {
		path, set, want string
	}{
		{WebAppPrefix + "s/AKfyc/exec", own, own},
		{WebAppPrefix + "s/AKfyc/exec", "", DataCSP},
		{"/sandbox/script/v1/projects", own, DataCSP},
	} {
		h := SecurityHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if tt.set != "" {
				w.Header().Set("Content-Security-Policy", tt.set)
			}
			w.WriteHeader(http.StatusOK)
		}))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", tt.path, nil))
		if got := rec.Header().Get("Content-Security-Policy"); got != tt.want {
			t.Errorf("%s setting %q: CSP got %q; want %q", tt.path, tt.set, got, tt.want)
		}
	}
}

// TestSecurityHeadersByKind: each kind of path gets its headers, whether or not its handler
// set its own; an app page's own policy, framing and opener policy stay, an API answer's and
// the preview's never do, and nosniff and the referrer policy are always Loupe's. A handler
// that changes a value in place changes its own response only.
func TestSecurityHeadersByKind(t *testing.T) {
	own := map[string]string{"Content-Security-Policy": "own-csp", "X-Frame-Options": "own-xfo",
		"Cross-Origin-Opener-Policy": "own-coop", "X-Content-Type-Options": "own-xcto", "Referrer-Policy": "own-rp"}
	tests := []struct {
		path    string
		withOwn bool
		want    map[string]string
	}{
		{"/proxy/chat/v1/models", false, map[string]string{"Content-Security-Policy": DataCSP, "X-Frame-Options": "DENY", "Cross-Origin-Opener-Policy": "", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}},
		{"/proxy/chat/v1/models", true, map[string]string{"Content-Security-Policy": DataCSP, "X-Frame-Options": "DENY", "Cross-Origin-Opener-Policy": "own-coop", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}},
		{"/preview", true, map[string]string{"Content-Security-Policy": PreviewCSP, "X-Frame-Options": "SAMEORIGIN", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}},
		{WebAppPrefix + "x/exec", false, map[string]string{"Content-Security-Policy": DataCSP, "X-Frame-Options": "DENY", "Cross-Origin-Opener-Policy": "", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}},
		{WebAppPrefix + "x/exec", true, map[string]string{"Content-Security-Policy": "own-csp", "X-Frame-Options": "own-xfo", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}},
		{"/", false, map[string]string{"Content-Security-Policy": AppCSP, "X-Frame-Options": "DENY", "Cross-Origin-Opener-Policy": "same-origin", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}},
		{"/", true, map[string]string{"Content-Security-Policy": "own-csp", "X-Frame-Options": "own-xfo", "Cross-Origin-Opener-Policy": "own-coop", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}},
	}
	for _, tt := range tests {
		for _, end := range []string{"WriteHeader", "Write", "Flush"} {
			h := SecurityHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tt.withOwn {
					for k, v := range own {
						w.Header().Set(k, v)
					}
				}
				switch end {
				case "WriteHeader":
					w.WriteHeader(http.StatusOK)
				case "Write":
					_, _ = w.Write([]byte("x"))
				case "Flush":
					w.(http.Flusher).Flush()
				}
				w.Header()["X-Content-Type-Options"][0] = "changed in place" // after the status: not sent
			}))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", tt.path, nil))
			sent := rec.Result().Header
			for name, want := range tt.want {
				if got := sent.Get(name); got != want {
					t.Errorf("%s (own %v, %s): %s got %q; want %q", tt.path, tt.withOwn, end, name, got, want)
				}
			}
		}
	}
}
