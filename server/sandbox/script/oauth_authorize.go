package script

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// callbackPath is the only path a redirect_uri may have.
const callbackPath = "/oauth/callback"

// challengePattern is what an S256 code_challenge looks like: the unpadded base64url of a
// SHA-256 digest (RFC 7636 §4.2).
var challengePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)

// serveAuthorize answers /oauth/authorize: GET validates the authorization request and shows
// the consent page; POST is the page's answer (Allow or Deny), which sends the browser back to
// the client's redirect_uri with a code or access_denied. A request whose client or
// redirect_uri cannot be trusted, or that is malformed, gets an error page and never a
// redirect.
func (as *authServer) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		req, problem := as.validate(r)
		if problem != "" {
			renderAuthError(w, http.StatusBadRequest, problem)
			return
		}
		req.expires = as.now().Add(consentTTL)
		renderConsent(w, as.sealRequest(req), req) // the page keeps the request, sealed: not the server
	case http.MethodPost:
		as.answerConsent(w, r)
	default:
		w.Header().Set("Allow", "GET, POST")
		renderAuthError(w, http.StatusMethodNotAllowed, "The sign-in page is opened with GET and answered with its own form (POST).")
	}
}

// validate checks an authorization request's query and returns it, or a problem to show.
func (as *authServer) validate(r *http.Request) (*authRequest, string) {
	q := r.URL.Query()
	for name, vs := range q {
		if len(vs) > 1 {
			return nil, fmt.Sprintf("The parameter %s is given %d times; give it once.", name, len(vs))
		}
	}
	id := q.Get("client_id")
	if id == "" {
		return nil, "The request has no client_id. The app that sent you here must name itself (the sandbox's client is " + SandboxClientID + ")."
	}
	client, ok := as.clients[id]
	if !ok {
		return nil, fmt.Sprintf("No client is registered with the client_id %q. Check the app's OAuth configuration (the sandbox's client is %s).", id, SandboxClientID)
	}
	redirect := q.Get("redirect_uri")
	if problem := checkRedirect(redirect, r.Host); problem != "" {
		return nil, problem
	}
	if rt := q.Get("response_type"); rt != "code" {
		return nil, fmt.Sprintf("response_type must be \"code\" (the authorization code flow), not %q.", rt)
	}
	if q.Get("scope") == "" {
		return nil, "The request asks for no scope. Ask for at least one of the API's scopes (the scope parameter, separated by spaces)."
	}
	scopes, unknown := parseScopes(q.Get("scope"))
	if unknown != "" {
		return nil, fmt.Sprintf("The scope %q is not one of the API's scopes. The sandbox's metadata lists them (scopes_supported).", unknown)
	}
	if m := q.Get("code_challenge_method"); m != "S256" {
		return nil, fmt.Sprintf("PKCE is required with code_challenge_method=S256 (got %q). Send the S256 code_challenge of a code_verifier.", m)
	}
	if !challengePattern.MatchString(q.Get("code_challenge")) {
		return nil, "The code_challenge is missing or malformed: it must be the base64url SHA-256 of the code_verifier (43 characters)."
	}
	return &authRequest{client: client, redirect: redirect, state: q.Get("state"), challenge: q.Get("code_challenge"), scopes: scopes}, ""
}

// checkRedirect says what is wrong with a redirect_uri, or "": it must be an absolute http(s)
// URL with the path /oauth/callback on the host the authorization request reached (the
// browser reaches the sandbox through the client's own origin), or on a loopback address
// with any port.
func checkRedirect(raw, host string) string {
	if raw == "" {
		return "The request has no redirect_uri. Give the app's callback, e.g. https://your-loupe-host" + callbackPath + "."
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Sprintf("The redirect_uri %q is not an absolute http or https URL.", raw)
	}
	if u.User != nil || strings.Contains(raw, "#") {
		return fmt.Sprintf("The redirect_uri %q may have neither user information nor a fragment.", raw)
	}
	if u.EscapedPath() != callbackPath {
		return fmt.Sprintf("The redirect_uri %q must have the path %s.", raw, callbackPath)
	}
	if isLoopback(u.Hostname()) || sameHostPort(u, host) {
		return ""
	}
	return fmt.Sprintf("The redirect_uri %q is not on this host (%s) nor on a loopback address; the sandbox sends the browser back only there.", raw, host)
}

// isLoopback reports whether host is localhost or a loopback IP address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// sameHostPort reports whether u is on host (a Host header), the scheme's default port
// written or not.
func sameHostPort(u *url.URL, host string) bool {
	def := map[string]string{"http": "80", "https": "443"}[u.Scheme]
	norm := func(h string) string {
		h = strings.ToLower(h)
		name, port, err := net.SplitHostPort(h)
		if err != nil {
			return h
		}
		if port == def {
			if strings.Contains(name, ":") {
				return "[" + name + "]"
			}
			return name
		}
		return h
	}
	return host != "" && norm(u.Host) == norm(host)
}

// answerConsent handles the consent form: the request it answers is sealed in its opaque id
// (nothing else in the form is trusted), used once, and the browser goes back to the
// request's redirect_uri with a code (Allow) or error=access_denied (Deny).
func (as *authServer) answerConsent(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		renderAuthError(w, http.StatusBadRequest, "The consent form could not be read. Start the sign-in again from the app.")
		return
	}
	decision := r.PostForm.Get("decision")
	if decision != "allow" && decision != "deny" {
		renderAuthError(w, http.StatusBadRequest, "Answer the consent page with its Allow or Deny button.")
		return
	}
	as.mu.Lock()
	now := as.now()
	as.sweep(now)
	by := ownerOf(r)
	req, ok, err := as.takeRequest(r.PostForm.Get("request"), as.clients, by, now)
	if err != nil {
		as.mu.Unlock()
		as.keeper.log.Error("script sandbox: a consent answer could not be recorded", "err", err)
		renderAuthError(w, http.StatusServiceUnavailable, "The sign-in could not be completed: the database that keeps it across Loupe's replicas did not answer. Start the sign-in again from the app.")
		return
	}
	var code string
	if ok && decision == "allow" {
		code = newSecret("sandbox-code.")
		ac := &authCode{req: *req, expires: now.Add(codeTTL)}
		as.codes.Put(code, ac, by.client, by.protected)
		if err := as.keepCode(code, ac, by); err != nil {
			as.codes.Delete(code)
			as.mu.Unlock()
			as.keeper.log.Error("script sandbox: an authorization code could not be kept", "err", err)
			renderAuthError(w, http.StatusServiceUnavailable, "The sign-in could not be completed: the database that keeps it across Loupe's replicas did not answer. Start the sign-in again from the app.")
			return
		}
	}
	as.mu.Unlock()
	if !ok {
		renderAuthError(w, http.StatusBadRequest, "This sign-in request has expired or was already answered. Start the sign-in again from the app.")
		return
	}
	params := url.Values{}
	if code != "" {
		params.Set("code", code)
	} else {
		params.Set("error", "access_denied")
		params.Set("error_description", "The user denied access.")
	}
	if req.state != "" {
		params.Set("state", req.state)
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, withQuery(req.redirect, params), http.StatusFound)
}

// withQuery adds params to the query of the (validated, absolute) URL raw.
func withQuery(raw string, params url.Values) string {
	u, _ := url.Parse(raw)
	q := u.Query()
	for k, vs := range params {
		q[k] = vs
	}
	u.RawQuery = q.Encode()
	return u.String()
}
