package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
)

// TestAPIPageSaysWhatIsSent checks the Credentials line of an API that signs in with OAuth
// (the document names a bearer token) in each sign-in state: what the proxy actually adds.
func TestAPIPageSaysWhatIsSent(t *testing.T) {
	a := &catalog.API{Slug: "script", Title: "Script", Security: []catalog.SecurityScheme{{Name: "oauth", Type: "oauth2"}}}
	tests := []struct {
		name   string
		st     catalog.OAuthStatus
		want   string
		absent string
	}{
		{"status not known yet", catalog.OAuthStatus{}, "Authorization: Bearer ‹held by the server›", "key="},
		{"another API's status", catalog.OAuthStatus{API: "reports", FallbackParam: "key"}, "Authorization: Bearer ‹held by the server›", "key="},
		{"signed out, a key to fall back on", catalog.OAuthStatus{API: "script", FallbackParam: "key"}, "key=‹held by the server›", "Authorization"},
		{"signed out, nothing to fall back on", catalog.OAuthStatus{API: "script"}, "none while you are signed out", "‹held by the server›"},
		{"signed in", catalog.OAuthStatus{API: "script", SignedIn: true, FallbackParam: "key"}, "Authorization: Bearer ‹held by the server›", "key="},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newAPIPage(a)
			p.oauth = tt.st
			html := app.HTMLString(p)
			i := strings.Index(html, `id="held"`)
			if i < 0 {
				t.Fatalf("no Credentials line in %s", html)
			}
			line := html[i:min(len(html), i+400)]
			if !strings.Contains(line, tt.want) || strings.Contains(line, tt.absent) {
				t.Errorf("the Credentials line is %s; want %q and no %q", line, tt.want, tt.absent)
			}
		})
	}
}
