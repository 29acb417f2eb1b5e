package oauth

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// signoutCOP refuses a sign-out posted from another site.
var signoutCOP = http.NewCrossOriginProtection()

// serveSignout forgets the user's grant for the API and, where the provider has a revocation
// endpoint, revokes its refresh token (which ends its access tokens too) and access token.
func (s *Service) serveSignout(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		page(w, http.StatusMethodNotAllowed, "Use POST", "Sign out with the Sign out button on the API's page.", "", "/")
		return
	}
	if err := signoutCOP.Check(r); err != nil {
		page(w, http.StatusForbidden, "Refused", "A sign-out from another site is refused.", "Sign out on Loupe's own page.", "/")
		return
	}
	slug := r.URL.Query().Get("api")
	p := s.provider(slug)
	if p == nil {
		s.unknownAPI(w, slug)
		return
	}
	back := backPath(r.URL.Query().Get("return"), "/"+slug)
	user := s.user(r)
	if g := s.lookup(user, slug); g != nil {
		cur := g.snapshot()
		s.forget(user, slug, g)
		if p.RevokeURL != "" && cur != nil {
			for _, t := range [][2]string{{cur.RefreshToken, "refresh_token"}, {cur.AccessToken, "access_token"}} {
				if t[0] != "" {
					s.revoke(r.Context(), p, t[0], t[1])
				}
			}
		}
		s.opts.Logger.Info("oauth signed out", "user", user, "api", slug)
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, back, http.StatusSeeOther)
}

// revoke asks the provider to revoke a token (RFC 7009), with the client's credentials; a
// failure is logged (without the token) and otherwise ignored: the grant is forgotten anyway.
func (s *Service) revoke(ctx context.Context, p *Provider, token, hint string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), callTimeout)
	defer cancel()
	form := url.Values{"token": {token}, "token_type_hint": {hint}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.RevokeURL, strings.NewReader(form.Encode()))
	if err != nil {
		return
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(p.ClientID), url.QueryEscape(p.ClientSecret))
	res, err := s.opts.Client.Do(req)
	if err != nil {
		s.opts.Logger.Warn("oauth revocation failed", "api", p.API, "reason", "revocation endpoint unreachable")
		return
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		s.opts.Logger.Warn("oauth revocation refused", "api", p.API, "status", res.StatusCode)
	}
}
