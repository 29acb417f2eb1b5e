package script

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
)

// verifierPattern is a PKCE code_verifier (RFC 7636 §4.1).
var verifierPattern = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// tokenResponse is the token endpoint's answer (RFC 6749 §5.1).
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token,omitempty"`
	Scope        string `json:"scope"`
}

// oauthError is an error answer of the token, revocation and userinfo endpoints (RFC 6749 §5.2).
type oauthError struct {
	Error       string `json:"error"`
	Description string `json:"error_description,omitempty"`
}

// writeOAuthError answers an OAuth error with its status code.
func writeOAuthError(w http.ResponseWriter, code int, kind, description string) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, code, oauthError{Error: kind, Description: description})
}

// serveToken answers POST /oauth/token: the authorization_code grant (with its PKCE
// code_verifier) and the refresh_token grant (optionally narrower scope). The client
// authenticates with HTTP Basic or with client_id and client_secret in the form.
func (as *authServer) serveToken(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		writeOAuthError(w, http.StatusMethodNotAllowed, "invalid_request", "The token endpoint takes POST.")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		writeOAuthError(w, http.StatusBadRequest, "invalid_request", "The body must be an application/x-www-form-urlencoded form.")
		return
	}
	client, kind, desc := as.authenticate(r)
	if kind != "" {
		code := http.StatusBadRequest
		if kind == "invalid_client" {
			code = http.StatusUnauthorized
			if _, _, basic := r.BasicAuth(); basic {
				w.Header().Set("WWW-Authenticate", `Basic realm="script sandbox"`)
			}
		}
		writeOAuthError(w, code, kind, desc)
		return
	}
	f := r.PostForm
	var (
		resp *tokenResponse
		err  *oauthError
	)
	switch f.Get("grant_type") {
	case "authorization_code":
		resp, err = as.exchangeCode(client, f, ownerOf(r))
	case "refresh_token":
		resp, err = as.refreshGrant(client, f, ownerOf(r))
	case "":
		err = &oauthError{"invalid_request", "grant_type is missing."}
	default:
		err = &oauthError{"unsupported_grant_type", "grant_type must be authorization_code or refresh_token."}
	}
	if err != nil {
		code := http.StatusBadRequest
		if err == errNotKept {
			code = http.StatusServiceUnavailable
		}
		writeOAuthError(w, code, err.Error, err.Description)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	writeJSON(w, http.StatusOK, resp)
}

// authenticate finds the client of a token or revocation request from HTTP Basic or the
// form's client_id and client_secret. It returns an OAuth error kind and description when the
// client is not authenticated.
func (as *authServer) authenticate(r *http.Request) (OAuthClient, string, string) {
	id, secret, basic := r.BasicAuth()
	if basic {
		// RFC 6749 §2.3.1: both are form-encoded before Basic encoding.
		uid, err1 := url.QueryUnescape(id)
		usecret, err2 := url.QueryUnescape(secret)
		if err1 != nil || err2 != nil {
			return OAuthClient{}, "invalid_client", "The Basic credentials are not form-encoded."
		}
		id, secret = uid, usecret
		if r.PostForm.Has("client_secret") {
			return OAuthClient{}, "invalid_request", "Authenticate the client one way only: HTTP Basic or client_secret in the form."
		}
		if fid := r.PostForm.Get("client_id"); fid != "" && fid != id {
			return OAuthClient{}, "invalid_request", "client_id in the form differs from the Basic credentials."
		}
	} else {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id == "" {
		return OAuthClient{}, "invalid_client", "The client is not authenticated: send client_id and client_secret (HTTP Basic or the form)."
	}
	c, ok := as.clients[id]
	if !ok || subtle.ConstantTimeCompare([]byte(secret), []byte(c.Secret)) != 1 {
		return OAuthClient{}, "invalid_client", "Unknown client or wrong client secret."
	}
	return c, "", ""
}

// exchangeCode redeems an authorization code for an access and a refresh token.
// The grant belongs to by, the client that redeems the code.
func (as *authServer) exchangeCode(client OAuthClient, f url.Values, by owner) (*tokenResponse, *oauthError) {
	code, verifier := f.Get("code"), f.Get("code_verifier")
	if code == "" {
		return nil, &oauthError{"invalid_request", "code is missing."}
	}
	if verifier == "" {
		return nil, &oauthError{"invalid_request", "code_verifier is missing: PKCE is required."}
	}
	as.mu.Lock()
	defer as.mu.Unlock()
	now := as.now()
	ac, ok, kept := as.redeemable(code)
	switch {
	case !kept:
		return nil, errNotKept
	case !ok || !now.Before(ac.expires):
		return nil, &oauthError{"invalid_grant", "The authorization code is invalid or has expired."}
	case ac.used:
		// A second use: revoke what the first one obtained (RFC 6749 §4.1.2).
		as.revokeGrant(ac.refresh)
		return nil, &oauthError{"invalid_grant", "The authorization code was already used; the tokens it gave are revoked."}
	}
	// A failed redemption uses the code up too: it was seen with the wrong client, callback or
	// verifier, so it may have leaked.
	var bad string
	switch {
	case ac.req.client.ID != client.ID:
		bad = "The authorization code was issued to another client."
	case f.Get("redirect_uri") != ac.req.redirect:
		bad = "redirect_uri differs from the one of the authorization request."
	case !verifierPattern.MatchString(verifier) || !challengeMatches(verifier, ac.req.challenge):
		bad = "code_verifier does not match the code_challenge."
	}
	if bad != "" {
		as.forgetCode(code)
		return nil, &oauthError{"invalid_grant", bad}
	}
	ac.used = true
	as.sweep(now)
	g := grant{client: client.ID, account: SandboxAccount, scopes: ac.req.scopes, issued: now}
	rt, kerr := as.addGrant(&g, by)
	if kerr != nil {
		ac.used = false // nothing was issued: the client may try again (a shared code is used up: it may not)
		return nil, errNotKept
	}
	ac.refresh = rt
	as.codeGave(code, ac)
	tok, at, kerr := as.issueAccess(g, rt, by, now)
	if kerr != nil {
		as.revokeGrant(rt)
		ac.used, ac.refresh = false, ""
		return nil, errNotKept
	}
	return &tokenResponse{AccessToken: tok, TokenType: "Bearer", ExpiresIn: seconds(at.expires.Sub(now)),
		RefreshToken: rt, Scope: strings.Join(g.scopes, " ")}, nil
}

// refreshGrant issues a new access token from a refresh token, for its scopes or a subset.
// The refresh token stays the same (it does not rotate).
// A refresh marks the grant used, so that the grants evicted first are those no one uses.
func (as *authServer) refreshGrant(client OAuthClient, f url.Values, by owner) (*tokenResponse, *oauthError) {
	rt := f.Get("refresh_token")
	if rt == "" {
		return nil, &oauthError{"invalid_request", "refresh_token is missing."}
	}
	as.mu.Lock()
	defer as.mu.Unlock()
	now := as.now()
	g, ok := as.findGrant(rt, true)
	if !ok || g.client != client.ID {
		return nil, &oauthError{"invalid_grant", "Token has been expired or revoked."}
	}
	scopes := g.scopes
	if f.Has("scope") {
		asked, unknown := parseScopes(f.Get("scope"))
		if unknown != "" || len(asked) == 0 || slices.ContainsFunc(asked, func(s string) bool { return !slices.Contains(g.scopes, s) }) {
			return nil, &oauthError{"invalid_scope", "scope must be a non-empty subset of the scopes granted: " + strings.Join(g.scopes, " ")}
		}
		scopes = asked
	}
	as.sweep(now)
	narrowed := grant{client: g.client, account: g.account, scopes: scopes, issued: g.issued}
	tok, at, kerr := as.issueAccess(narrowed, rt, by, now)
	if kerr != nil {
		return nil, errNotKept
	}
	return &tokenResponse{AccessToken: tok, TokenType: "Bearer", ExpiresIn: seconds(at.expires.Sub(now)),
		Scope: strings.Join(scopes, " ")}, nil
}

// challengeMatches reports whether verifier's S256 transform is challenge.
func challengeMatches(verifier, challenge string) bool {
	sum := sha256.Sum256([]byte(verifier))
	return subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(challenge)) == 1
}

// seconds rounds d up to whole seconds.
func seconds(d time.Duration) int64 { return int64((d + time.Second - 1) / time.Second) }
