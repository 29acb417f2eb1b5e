package oauth

import (
	"encoding/json"
	"loupe/app/catalog"
	"net/http"
)

// Status is what GET /oauth/status?api=<slug> answers (catalog.OAuthStatus, the type the
// page decodes).
type Status = catalog.OAuthStatus

// serveStatus answers Status as JSON. For an API that does not sign in with OAuth here it
// answers 200 with the slug alone (no Start, so Offered is false): the page of any API whose
// document has an OAuth scheme asks, and "not here" is an answer, not an error to log in the
// browser's console.
func (s *Service) serveStatus(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	slug := r.URL.Query().Get("api")
	p := s.provider(slug)
	if p == nil {
		_ = json.NewEncoder(w).Encode(Status{API: slug})
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
