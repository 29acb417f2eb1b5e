package oauth

import (
	"context"
	"errors"
	"net/http"

	"golang.org/x/oauth2"

	"loupe/server/proxy"
)

// Authorize returns the proxy's hook (proxy.API.Authorize) for api: the calling user's access
// token as "Authorization: Bearer", refreshed when it is about to expire; nil when the user
// has not signed in, so the API's own credential (its API key) goes instead. When the
// provider refuses to refresh the grant (revoked, expired), the grant is forgotten and the
// call is answered 401 with words that say to sign in again.
func (s *Service) Authorize(api string) func(ctx context.Context, user string) (func(*http.Request), error) {
	return func(ctx context.Context, user string) (func(*http.Request), error) {
		g := s.lookup(user, api)
		if g == nil {
			return nil, nil
		}
		tok, err := g.Token()
		if err != nil {
			return nil, s.refreshFailed(user, api, g, err)
		}
		bearer := "Bearer " + tok.AccessToken
		return func(r *http.Request) { r.Header.Set("Authorization", bearer) }, nil
	}
}

// refreshFailed forgets a grant the provider will not refresh and says what to do.
func (s *Service) refreshFailed(user, api string, g *grant, err error) error {
	title, key := api, "apis."+api+".credential"
	if p := s.provider(api); p != nil {
		title, key = p.title(), p.ConfigKey
	}
	var re *oauth2.RetrieveError
	switch {
	case errors.As(err, &re) && re.Response != nil && re.Response.StatusCode >= 400 && re.Response.StatusCode < 500:
		// invalid_grant (revoked or expired), invalid_client (the client changed) …: this
		// grant will not work again.
		s.forget(user, api, g)
		code := re.ErrorCode
		if code == "" {
			code = http.StatusText(re.Response.StatusCode)
		}
		s.opts.Logger.Warn("oauth refresh refused; grant forgotten", "user", user, "api", api, "error", code)
		return &proxy.AuthError{Status: http.StatusUnauthorized,
			Message: api + ": your sign-in to " + title + " has ended: the provider refused to renew it (" + code + "), so Loupe forgot it",
			Check:   "sign in to " + title + " again on its page (Sign in), or sign out to use the API key"}
	case errors.As(err, &re):
		s.opts.Logger.Warn("oauth refresh failed", "user", user, "api", api, "status", statusOf(re))
		return &proxy.AuthError{Status: http.StatusBadGateway,
			Message: api + ": the access token could not be renewed: the token endpoint answered " + statusOf(re),
			Check:   key + ".token_url, and try again"}
	case g.snapshot() != nil && g.snapshot().RefreshToken == "":
		s.forget(user, api, g)
		return &proxy.AuthError{Status: http.StatusUnauthorized,
			Message: api + ": your sign-in to " + title + " has expired and the provider gave no refresh token, so Loupe forgot it",
			Check:   "sign in to " + title + " again on its page (Sign in)"}
	default:
		s.opts.Logger.Warn("oauth refresh failed", "user", user, "api", api, "reason", "token endpoint unreachable")
		return &proxy.AuthError{Status: http.StatusBadGateway,
			Message: api + ": the access token could not be renewed: the token endpoint did not answer",
			Check:   key + ".token_url, and try again"}
	}
}

func statusOf(re *oauth2.RetrieveError) string {
	if re.Response == nil {
		return "nothing"
	}
	return re.Response.Status
}
