package script

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

const (
	scopeProjects = "https://www.googleapis.com/auth/script.projects"
	scopeReadonly = "https://www.googleapis.com/auth/script.projects.readonly"
	scopeMetrics  = "https://www.googleapis.com/auth/script.metrics"
)

// TestAuthorizeRefusesBadRequests: a request that cannot be trusted or is malformed gets an
// error page that says what is wrong, and never a redirect.
func TestAuthorizeRefusesBadRequests(t *testing.T) {
	h, _ := newOAuthTest(t, Options{})
	tests := []struct {
		name     string
		override map[string]string
		want     string // in the page
	}{
		{"no client", map[string]string{"client_id": ""}, "has no client_id"},
		{"unknown client", map[string]string{"client_id": "evil"}, `client_id &#34;evil&#34;`},
		{"no redirect", map[string]string{"redirect_uri": ""}, "has no redirect_uri"},
		{"relative redirect", map[string]string{"redirect_uri": "/oauth/callback"}, "not an absolute http or https URL"},
		{"redirect to another site", map[string]string{"redirect_uri": "https://evil.example/oauth/callback"}, "not on this host"},
		{"redirect to another port", map[string]string{"redirect_uri": "http://loupe.test:9999/oauth/callback"}, "not on this host"},
		{"redirect with another path", map[string]string{"redirect_uri": "http://" + oauthHost + "/steal"}, "must have the path /oauth/callback"},
		{"redirect with a fragment", map[string]string{"redirect_uri": oauthCallback + "#x"}, "nor a fragment"},
		{"redirect with user info", map[string]string{"redirect_uri": "http://u@" + oauthHost + "/oauth/callback"}, "nor a fragment"},
		{"javascript redirect", map[string]string{"redirect_uri": "javascript:alert(1)"}, "not an absolute http or https URL"},
		{"token response type", map[string]string{"response_type": "token"}, "response_type must be"},
		{"no scope", map[string]string{"scope": ""}, "asks for no scope"},
		{"unknown scope", map[string]string{"scope": scopeProjects + " https://www.googleapis.com/auth/cloud-platform"}, "cloud-platform"},
		{"no PKCE", map[string]string{"code_challenge": "", "code_challenge_method": ""}, "PKCE is required"},
		{"plain PKCE", map[string]string{"code_challenge_method": "plain"}, "PKCE is required"},
		{"no challenge", map[string]string{"code_challenge": ""}, "code_challenge is missing or malformed"},
		{"short challenge", map[string]string{"code_challenge": "abc"}, "code_challenge is missing or malformed"},
	}
	for _, tt := range tests {
		q := authorizeQuery(scopeProjects, tt.override)
		w := serve(h, httptest.NewRequest("GET", "/oauth/authorize?"+q.Encode(), nil))
		if w.Code != http.StatusBadRequest || w.Header().Get("Location") != "" {
			t.Errorf("%s: got %d Location %q; want 400 and no redirect", tt.name, w.Code, w.Header().Get("Location"))
		}
		if body := w.Body.String(); !strings.Contains(body, tt.want) || !strings.Contains(body, "refused") {
			t.Errorf("%s: page %q; want it to say %q", tt.name, body, tt.want)
		}
		if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "form-action 'none'") {
			t.Errorf("%s: CSP got %q; want a strict one", tt.name, csp)
		}
	}
	// A parameter given twice is refused too.
	w := serve(h, httptest.NewRequest("GET", "/oauth/authorize?"+authorizeQuery(scopeProjects, nil).Encode()+"&redirect_uri=https://evil.example/oauth/callback", nil))
	if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "given 2 times") {
		t.Errorf("duplicate redirect_uri: got %d %s; want 400", w.Code, w.Body)
	}
}

// TestCheckRedirect lists the callbacks the sandbox sends a browser back to.
func TestCheckRedirect(t *testing.T) {
	tests := []struct {
		uri, host string
		ok        bool
	}{
		{"http://loupe.test:8161/oauth/callback", "loupe.test:8161", true},
		{"http://LOUPE.test:8161/oauth/callback?x=1", "loupe.test:8161", true},
		{"https://loupe.example/oauth/callback", "loupe.example", true},
		{"https://loupe.example:443/oauth/callback", "loupe.example", true},
		{"http://127.0.0.1:53682/oauth/callback", "loupe.example", true},
		{"http://localhost/oauth/callback", "loupe.example", true},
		{"http://[::1]:8080/oauth/callback", "loupe.example", true},
		{"http://loupe.example.evil.com/oauth/callback", "loupe.example", false},
		{"http://loupe.example/oauth/callback/", "loupe.example", false},
		{"http://loupe.example/oauth/%63allback", "loupe.example", false},
		{"http://loupe.example/sandbox/../oauth/callback", "loupe.example", false},
		{"ftp://loupe.example/oauth/callback", "loupe.example", false},
		{"//loupe.example/oauth/callback", "loupe.example", false},
		{"http://localhost.evil.com/oauth/callback", "loupe.example", false},
		{"http://127.0.0.1:53682/other", "loupe.example", false},
	}
	for _, tt := range tests {
		if got := checkRedirect(tt.uri, tt.host) == ""; got != tt.ok {
			t.Errorf("%s on %s: got ok=%v; want %v (%s)", tt.uri, tt.host, got, tt.ok, checkRedirect(tt.uri, tt.host))
		}
	}
}

// TestConsentPage checks what the page shows and how it is protected.
func TestConsentPage(t *testing.T) {
	h, _ := newOAuthTest(t, Options{OAuthClients: []OAuthClient{{ID: "cli-1", Secret: "s", Name: "Ada's <tool>"}}})
	q := authorizeQuery(scopeReadonly+" "+scopeMetrics, map[string]string{"client_id": "cli-1", "redirect_uri": "http://127.0.0.1:5000/oauth/callback"})
	w := serve(h, httptest.NewRequest("GET", "/oauth/authorize?"+q.Encode(), nil))
	body := w.Body.String()
	if w.Code != 200 {
		t.Fatalf("got %d %s; want 200", w.Code, body)
	}
	for _, want := range []string{
		"Ada&#39;s &lt;tool&gt; wants to access", "<code>cli-1</code>", SandboxAccount,
		"View a project&#39;s metrics", scopeMetrics, "View script projects", scopeReadonly,
		`<button class="allow" type="submit" name="decision" value="allow">Allow</button>`,
		`value="deny">Deny</button>`, `<form method="post" action="authorize">`, `lang="en"`,
		"http://127.0.0.1:5000/oauth/callback",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "<script") || strings.Contains(body, "st-123") || strings.Contains(body, challengeOf(testVerifier)) {
		t.Errorf("page carries a script, the state or the challenge; want only the opaque request id:\n%s", body)
	}
	csp := w.Header().Get("Content-Security-Policy")
	style := regexp.MustCompile(`(?s)<style>(.*)</style>`).FindStringSubmatch(body)
	if style == nil || !strings.Contains(csp, "'sha256-"+hashOf(style[1])+"'") {
		t.Errorf("CSP %q does not allow the page's own style", csp)
	}
	for _, want := range []string{"default-src 'none'", "frame-ancestors 'none'", "form-action 'self' http://127.0.0.1:5000"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if got := w.Header().Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control got %q; want no-store", got)
	}
}

// TestConsentAnswers: Allow sends the browser back with a code and the state, Deny with
// access_denied; the answer is bound to the request server-side and works once.
func TestConsentAnswers(t *testing.T) {
	h, c := newOAuthTest(t, Options{})
	q := authorizeQuery(scopeProjects, nil)

	id := openConsent(t, h, q)
	w := answerConsent(h, id, "deny")
	loc, _ := url.Parse(w.Header().Get("Location"))
	if w.Code != http.StatusFound || loc.Query().Get("error") != "access_denied" || loc.Query().Get("state") != "st-123" ||
		loc.Query().Has("code") || loc.Scheme+"://"+loc.Host+loc.Path != oauthCallback {
		t.Errorf("deny: got %d %q; want 302 to the callback with error=access_denied&state=st-123", w.Code, loc)
	}
	if w := answerConsent(h, id, "allow"); w.Code != http.StatusBadRequest || w.Header().Get("Location") != "" {
		t.Errorf("allow after deny: got %d %q; want 400, the request is answered", w.Code, w.Header().Get("Location"))
	}

	id = openConsent(t, h, q)
	w = answerConsent(h, id, "allow")
	loc, _ = url.Parse(w.Header().Get("Location"))
	if w.Code != http.StatusFound || !strings.HasPrefix(loc.Query().Get("code"), "sandbox-code.") || loc.Query().Get("state") != "st-123" {
		t.Errorf("allow: got %d %q; want 302 with a code and the state", w.Code, loc)
	}
	if w := answerConsent(h, id, "allow"); w.Code != http.StatusBadRequest {
		t.Errorf("allow twice: got %d; want 400", w.Code)
	}

	tests := []struct{ name, id, decision string }{
		{"forged request id", "made-up", "allow"},
		{"no request id", "", "allow"},
		{"no decision", openConsent(t, h, q), ""},
		{"odd decision", openConsent(t, h, q), "maybe"},
	}
	for _, tt := range tests {
		if w := answerConsent(h, tt.id, tt.decision); w.Code != http.StatusBadRequest || w.Header().Get("Location") != "" {
			t.Errorf("%s: got %d %q; want 400 and no redirect", tt.name, w.Code, w.Header().Get("Location"))
		}
	}

	// A consent page left open too long expires.
	id = openConsent(t, h, q)
	c.advance(consentTTL + time.Second)
	if w := answerConsent(h, id, "allow"); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "expired") {
		t.Errorf("late answer: got %d; want 400 expired", w.Code)
	}
	// Other methods are refused.
	if w := serve(h, httptest.NewRequest("PUT", "/oauth/authorize", nil)); w.Code != http.StatusMethodNotAllowed {
		t.Errorf("PUT: got %d; want 405", w.Code)
	}
}
