package oauth

import (
	"encoding/json"
	"net/http"
	"time"
)

// Status is what GET /oauth/status?api=<slug> answers: enough for the page to say who is
// signed in and what the grant covers. It never holds a token.
type Status struct {
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
	Available []Scope `json:"available"`
	// Fallback says what calls go with while the user has not signed in; "" for nothing.
	Fallback string `json:"fallback,omitempty"`
	// FallbackParam is the query parameter the fallback credential is sent as, so that the
	// request preview shows it; "" for nothing.
	FallbackParam string `json:"fallbackParam,omitempty"`
	// Start and Signout are where the page sends the browser to sign in and out.
	Start   string `json:"start"`
	Signout string `json:"signout"`
}

// serveStatus answers Status as JSON; 404 JSON for an API that does not sign in with OAuth.
func (s *Service) serveStatus(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	slug := r.URL.Query().Get("api")
	p := s.provider(slug)
	if p == nil {
		w.WriteHeader(http.StatusNotFound)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "no API " + strconvQuote(slug) + " signs in with OAuth here", "source": "loupe oauth"})
		return
	}
	st := Status{API: slug, Available: p.Scopes, Fallback: p.Fallback, FallbackParam: p.FallbackParam, Start: Prefix + "start", Signout: Prefix + "signout"}
	if g := s.lookup(s.user(r), slug); g != nil {
		st.SignedIn, st.Who, st.Scopes = true, g.who, g.grantedScopes()
		if tok := g.snapshot(); tok != nil {
			if !tok.Expiry.IsZero() {
				e := tok.Expiry.UTC()
				st.Expires = &e
			}
			st.Renews = tok.RefreshToken != ""
		}
	}
	_ = json.NewEncoder(w).Encode(st)
}
