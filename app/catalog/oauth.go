package catalog

import (
	"net/url"
	"time"
)

// OAuthStatus is what GET /oauth/status?api=<slug> answers (server/oauth): enough for the
// page to say who is signed in and what the grant covers. It never holds a token.
type OAuthStatus struct {
	// API is the slug asked about.
	API string `json:"api"`
	// SignedIn reports whether the user holds a grant for the API.
	SignedIn bool `json:"signedIn"`
	// Who is the signed-in account's email, when the userinfo.email scope was granted.
	Who string `json:"who,omitempty"`
	// Scopes are the scopes granted.
	Scopes []string `json:"scopes,omitempty"`
	// Expires is when the current access token lapses; it is renewed before then.
	Expires *time.Time `json:"expires,omitempty"`
	// Renews reports whether the grant can be renewed (the provider gave a refresh token).
	Renews bool `json:"renews,omitempty"`
	// Available are the scopes the user may ask for, with what each allows.
	Available []OAuthScope `json:"available"`
	// Fallback says what calls go with while the user has not signed in; "" for nothing.
	Fallback string `json:"fallback,omitempty"`
	// FallbackParam is the query parameter the fallback credential is sent as, so that the
	// request preview shows it; "" for nothing.
	FallbackParam string `json:"fallbackParam,omitempty"`
	// Start and Signout are where the page sends the browser to sign in and out; both are
	// empty when the API does not sign in with OAuth on this server (see Offered).
	Start   string `json:"start"`
	Signout string `json:"signout"`
}

// Offered reports whether the server signs in to the API with OAuth at all: an API whose
// document has an OAuth scheme may still have no client configured.
func (s *OAuthStatus) Offered() bool { return s.Start != "" }

// OAuthScope is a scope a user may ask for, with what it allows.
type OAuthScope struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// Granted reports whether the status grants scope.
func (s *OAuthStatus) Granted(scope string) bool {
	for _, g := range s.Scopes {
		if g == scope {
			return true
		}
	}
	return false
}

// StartURL is the link that signs in with scopes and comes back to back.
func (s *OAuthStatus) StartURL(scopes []string, back string) string {
	q := url.Values{"api": {s.API}, "return": {back}}
	for _, sc := range scopes {
		q.Add("scope", sc)
	}
	return s.Start + "?" + q.Encode()
}
