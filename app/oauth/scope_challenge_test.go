package oauth

import (
	"strings"
	"testing"

	"loupe/app/fetch"
)

func TestInsufficientScopes(t *testing.T) {
	tests := []struct {
		name, header, value string
		want                []string
	}{
		{"the sandbox through the proxy", "X-Upstream-Www-Authenticate",
			`Bearer realm="script sandbox", error="insufficient_scope", scope="https://www.googleapis.com/auth/script.projects"`,
			[]string{"https://www.googleapis.com/auth/script.projects"}},
		{"Google's, two scopes", "WWW-Authenticate",
			`Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="https://www.googleapis.com/auth/script.projects https://www.googleapis.com/auth/script.projects.readonly"`,
			[]string{"https://www.googleapis.com/auth/script.projects", "https://www.googleapis.com/auth/script.projects.readonly"}},
		{"a quoted comma and quote before it", "www-authenticate",
			`Bearer realm="a, \"b\"",error=insufficient_scope,scope="x y"`, []string{"x", "y"}},
		{"an expired token", "X-Upstream-Www-Authenticate", `Bearer realm="script sandbox", error="invalid_token"`, nil},
		{"no scope named", "WWW-Authenticate", `Bearer error="insufficient_scope"`, nil},
		{"another header", "X-Note", `Bearer error="insufficient_scope", scope="x"`, nil},
		{"garbage", "WWW-Authenticate", `Bearer "`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := insufficientScopes([]fetch.Header{{Name: "Content-Type", Value: "application/json"}, {Name: tt.header, Value: tt.value}})
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("got %q; want %q", got, tt.want)
			}
		})
	}
}

func TestScopeHintNamesTheScopeToAdd(t *testing.T) {
	h := []fetch.Header{{Name: "X-Upstream-Www-Authenticate", Value: `Bearer realm="script sandbox", error="insufficient_scope", scope="https://www.googleapis.com/auth/script.projects https://www.googleapis.com/auth/script.projects.readonly"`}}
	if got, want := scopeHint(h), "add script.projects or script.projects.readonly."; !strings.Contains(got, want) {
		t.Errorf("got %q; want it to say %q", got, want)
	}
	if got := scopeHint(nil); got != "" {
		t.Errorf("no challenge: got %q; want nothing", got)
	}
}
