package oauth

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// errorCode is what an error parameter from a provider may look like (RFC 6749 §4.1.2.1).
var errorCode = regexp.MustCompile(`^[a-z_]{1,64}$`)

// serveCallback finishes a sign-in: the state must be the one this browser started with, the
// code is exchanged (with the PKCE verifier) for tokens, which stay on the server. Any failure
// is a page saying what to do, and nothing is stored.
func (s *Service) serveCallback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	state := q.Get("state")
	c, _ := r.Cookie(stateCookie)
	// The cookie is single-use, whatever happens next.
	http.SetCookie(w, &http.Cookie{Name: stateCookie, Value: "", Path: Prefix, MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	var sealedState string
	var pd *pending
	if c != nil {
		sealedState, pd, _ = s.sealer.open(c.Value, time.Now())
	}
	user := s.user(r)
	switch {
	case state == "" || pd == nil || subtle.ConstantTimeCompare([]byte(sealedState), []byte(state)) != 1 || pd.user != user:
		page(w, http.StatusBadRequest, "Sign-in not recognised",
			"This browser did not start this sign-in, or it was already used or took longer than 10 minutes (its state does not match).",
			"Start again with Sign in on the API's page.", "/")
		s.opts.Logger.Warn("oauth callback refused", "user", user, "reason", "state mismatch")
		return
	}
	p := s.provider(pd.api)
	if p == nil {
		s.unknownAPI(w, pd.api)
		return
	}
	if e := q.Get("error"); e != "" {
		s.opts.Logger.Info("oauth sign-in not granted", "user", user, "api", pd.api, "error", codeOrOther(e))
		if e == "access_denied" {
			page(w, http.StatusForbidden, "Access denied", "You denied Loupe access to "+p.title()+" on the consent page.",
				"Calls to "+p.title()+" go on "+fallbackWords(p)+". To use your own grant, Sign in again and Allow.", pd.back)
			return
		}
		page(w, http.StatusBadGateway, "Sign-in failed", "The provider answered the sign-in to "+p.title()+" with the error "+codeOrOther(e)+".",
			"Check "+p.ConfigKey+".auth_url and the client's settings at the provider, then Sign in again.", pd.back)
		return
	}
	code := q.Get("code")
	if code == "" {
		page(w, http.StatusBadRequest, "Sign-in failed", "The provider sent the browser back without an authorization code.",
			"Sign in again; if it happens again, check "+p.ConfigKey+".auth_url.", pd.back)
		return
	}
	ctx, cancel := context.WithTimeout(s.clientContext(r.Context(), user), callTimeout)
	defer cancel()
	cfg := p.oauthConfig(pd.redirect, pd.scopes)
	tok, err := cfg.Exchange(ctx, code, oauth2.VerifierOption(pd.verifier))
	if err != nil {
		s.exchangeFailed(w, p, pd, err)
		return
	}
	g := newGrant(s.clientContext(context.Background(), user), cfg, tok, s.opts.Secrets)
	if len(g.grantedScopes()) == 0 {
		g.scopes = pd.scopes // the provider granted what was asked (RFC 6749 §5.1)
	}
	g.who = s.whoIs(p, tok)
	if old := s.store(user, pd.api, g); old != nil {
		old.release(s.opts.Secrets)
	}
	s.opts.Logger.Info("oauth signed in", "user", user, "api", pd.api, "scopes", len(g.grantedScopes()))
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, pd.back, http.StatusSeeOther)
}

// exchangeFailed answers a refused code exchange with the configuration key to check.
func (s *Service) exchangeFailed(w http.ResponseWriter, p *Provider, pd *pending, err error) {
	var re *oauth2.RetrieveError
	code := "unreachable"
	if errors.As(err, &re) {
		code = codeOrOther(re.ErrorCode)
		if re.ErrorCode == "" && re.Response != nil {
			code = re.Response.Status
		}
	}
	s.opts.Logger.Warn("oauth token exchange failed", "user", pd.user, "api", pd.api, "error", code)
	switch {
	case re != nil && (re.ErrorCode == "invalid_client" || re.ErrorCode == "unauthorized_client" || (re.Response != nil && re.Response.StatusCode == http.StatusUnauthorized)):
		page(w, http.StatusBadGateway, "The provider refused Loupe's client",
			"The token endpoint of "+p.title()+" refused the client id or secret ("+code+"), so the sign-in could not finish.",
			"Check "+p.ConfigKey+".client_id and "+p.ConfigKey+".client_secret against the client registered at the provider.", pd.back)
	case re != nil && re.ErrorCode == "invalid_grant":
		page(w, http.StatusBadGateway, "Sign-in failed",
			"The token endpoint of "+p.title()+" refused the authorization code (invalid_grant): it expired or was already used.",
			"Sign in again.", pd.back)
	case re != nil:
		page(w, http.StatusBadGateway, "Sign-in failed", "The token endpoint of "+p.title()+" answered "+code+".",
			"Check "+p.ConfigKey+".token_url and the client's settings, then Sign in again.", pd.back)
	default:
		page(w, http.StatusBadGateway, "Sign-in failed", "Loupe could not reach the token endpoint of "+p.title()+".",
			"Check "+p.ConfigKey+".token_url, then Sign in again.", pd.back)
	}
}

// whoIs asks the userinfo endpoint who signed in; "" when it is not configured or says nothing.
func (s *Service) whoIs(p *Provider, tok *oauth2.Token) string {
	if p.UserinfoURL == "" {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.UserinfoURL, nil)
	if err != nil {
		return ""
	}
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	req.Header.Set("Accept", "application/json")
	res, err := s.opts.Client.Do(req)
	if err != nil {
		return ""
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return "" // no userinfo.email scope: the page shows no name
	}
	var info struct {
		Email string `json:"email"`
		Sub   string `json:"sub"`
	}
	if json.NewDecoder(io.LimitReader(res.Body, 64<<10)).Decode(&info) != nil {
		return ""
	}
	if strings.ContainsAny(info.Email, "\r\n\x00") || len(info.Email) > 320 {
		return ""
	}
	return info.Email
}

// codeOrOther returns an error code as the provider sent it when it looks like one.
func codeOrOther(e string) string {
	if errorCode.MatchString(e) {
		return e
	}
	return "(an unreadable error code)"
}

// fallbackWords says what calls go with while a user has not signed in.
func fallbackWords(p *Provider) string {
	if p.Fallback == "" {
		return "with no credential"
	}
	return "with " + p.Fallback
}
