package oauth

import (
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"

	"loupe/app/catalog"
	"loupe/app/internal/apptest"
)

func TestDefaultScopesTickWhatTheOperationNeeds(t *testing.T) {
	const p = "https://www.googleapis.com/auth/"
	tests := []struct {
		name string
		alts [][]string
		want []string
	}{
		{"the only alternative", [][]string{{p + "script.projects"}}, []string{p + "script.projects"}},
		{"the read-only one of two", [][]string{{p + "script.projects"}, {p + "script.projects.readonly"}}, []string{p + "script.projects.readonly"}},
		{"none of scopes that each allow something else", [][]string{{"https://mail.google.com/"}, {p + "drive"}, {p + "forms"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := defaultScopes(tt.alts); strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("got %q; want %q", got, tt.want)
			}
		})
	}
	if got := distinctScopes([][]string{{"a", "b"}, {"b"}, {"c"}}); strings.Join(got, " ") != "a b c" {
		t.Errorf("distinctScopes: got %q; want a b c", got)
	}
}

// TestSignedOutNoteIsOneLineWithTheScopesFolded: signed out, with a key standing in, the note
// says what Send goes with and folds the operation's scopes, none ticked when any one of
// several is enough (no "permanently delete all email" ticked for a script run).
func TestSignedOutNoteIsOneLineWithTheScopesFolded(t *testing.T) {
	a := &catalog.API{Slug: "script", Title: "Script API", Security: []catalog.SecurityScheme{{Name: "oauth2", Type: "oauth2"}}}
	op := &catalog.Operation{ID: "scripts.run", Security: []catalog.SecurityRequirement{
		{Schemes: []catalog.SchemeScopes{{Scheme: "oauth2", Scopes: []string{"https://mail.google.com/"}}}},
		{Schemes: []catalog.SchemeScopes{{Scheme: "oauth2", Scopes: []string{"https://www.googleapis.com/auth/drive"}}}},
	}}
	n := newOAuthNeeds(a, op)
	n.st = &catalog.OAuthStatus{API: "script", Fallback: "the API key (?key=)", Start: "/oauth/start",
		Available: []catalog.OAuthScope{{Name: "https://mail.google.com/", Description: "Read, compose, send and permanently delete all email"}}}
	out := apptest.RenderUI(t, n)
	for _, want := range []string{"Send goes with the API key (?key=).", `id="oauth-needs-picker"`, "permanently delete all email", "Tick a scope to sign in"} {
		if !strings.Contains(out, want) {
			t.Errorf("got %s; want it to hold %q", out, want)
		}
	}
	if on := boolAttrs(out, "checked"); on != 0 || boolAttrs(out, "open") != 0 {
		t.Errorf("got %s; want nothing ticked and the scopes folded", out)
	}
}

// TestSignedOutNoteWithoutAKeyOpensTheScopes: with no key standing in, Send will be refused
// until the visitor signs in, so the scopes are unfolded, the operation's only one ticked.
func TestSignedOutNoteWithoutAKeyOpensTheScopes(t *testing.T) {
	a := &catalog.API{Slug: "script", Title: "Script API", Security: []catalog.SecurityScheme{{Name: "oauth2", Type: "oauth2"}}}
	op := &catalog.Operation{ID: "projects.create", Security: []catalog.SecurityRequirement{
		{Schemes: []catalog.SchemeScopes{{Scheme: "oauth2", Scopes: []string{"https://www.googleapis.com/auth/script.projects"}}}},
	}}
	n := newOAuthNeeds(a, op)
	n.st = &catalog.OAuthStatus{API: "script", Start: "/oauth/start"}
	out := apptest.RenderUI(t, n)
	for _, want := range []string{"Sign in with script.projects", "refused until you sign in"} {
		if !strings.Contains(out, want) {
			t.Errorf("got %s; want it to hold %q", out, want)
		}
	}
	if boolAttrs(out, "checked") != 1 || boolAttrs(out, "open") != 1 {
		t.Errorf("got %s; want the only scope ticked and the scopes unfolded", out)
	}
}

// boolAttrs counts the elements of src on which the boolean attribute name is set (present,
// and not "false" as go-app writes a property set to false).
func boolAttrs(src, name string) int {
	n := 0
	z := xhtml.NewTokenizer(strings.NewReader(src))
	for {
		switch z.Next() {
		case xhtml.ErrorToken:
			return n
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			for _, a := range z.Token().Attr {
				if a.Key == name && a.Val != "false" {
					n++
				}
			}
		}
	}
}
