package script

import (
	"net/http"
	"strings"
)

// invalidCredentials is Google's message for a bearer token it does not accept.
const invalidCredentials = "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."

// bearerRealm names the protection space in WWW-Authenticate challenges.
const bearerRealm = `Bearer realm="script sandbox"`

// checkCredential accepts the key (as a bearer token or the key or access_token parameter), or
// an access token of the authorization server that carries one of the scopes the operation
// opID accepts. It returns the error to answer, with its WWW-Authenticate challenge set on w.
func (h *handler) checkCredential(w http.ResponseWriter, r *http.Request, opID string) *apiError {
	q := r.URL.Query()
	if auth := r.Header.Get("Authorization"); auth != "" {
		scheme, tok, _ := strings.Cut(auth, " ")
		if !strings.EqualFold(scheme, "Bearer") {
			return errInvalidCredential(opScopes[opID].method, "ACCESS_TOKEN_TYPE_UNSUPPORTED")
		}
		return h.checkToken(w, strings.TrimSpace(tok), opID)
	}
	if q.Has("access_token") {
		return h.checkToken(w, q.Get("access_token"), opID)
	}
	if q.Has("key") {
		if q.Get("key") == h.key {
			return nil
		}
		return errInvalidKey()
	}
	return errMissingCredential()
}

// checkToken accepts tok when it is the key, or a live access token with one of the scopes of
// operation opID: 401 UNAUTHENTICATED for an unknown, expired or revoked one, 403
// PERMISSION_DENIED naming the method for one without the scopes.
func (h *handler) checkToken(w http.ResponseWriter, tok, opID string) *apiError {
	if tok == h.key {
		return nil
	}
	need := opScopes[opID]
	state, granted := h.as.lookup(tok)
	switch {
	case state == tokenValid && grantsAny(granted, need.scopes):
		return nil
	case state == tokenValid:
		w.Header().Set("WWW-Authenticate", bearerRealm+`, error="insufficient_scope", scope="`+strings.Join(need.scopes, " ")+`"`)
		return scopeInsufficient(need.method, service)
	case state == tokenExpired:
		w.Header().Set("WWW-Authenticate", bearerRealm+`, error="invalid_token"`)
		return errInvalidCredential(need.method, "ACCESS_TOKEN_EXPIRED")
	}
	w.Header().Set("WWW-Authenticate", bearerRealm+`, error="invalid_token"`)
	return errInvalidCredential(need.method, "ACCESS_TOKEN_TYPE_UNSUPPORTED")
}

// errInvalidCredential is the 401 for a bearer token (or access_token) that is neither the key
// nor a live access token; reason says which, method names the RPC method when known.
func errInvalidCredential(method, reason string) *apiError {
	return withMethod(newInfoError(http.StatusUnauthorized, "UNAUTHENTICATED", reason, invalidCredentials), method)
}

// scopeInsufficient is Google's 403 for a token without any scope the method accepts.
func scopeInsufficient(method, svc string) *apiError {
	e := newInfoError(http.StatusForbidden, "PERMISSION_DENIED", "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
		"Request had insufficient authentication scopes.")
	e.Error.Details[0].(errorInfo).Metadata["service"] = svc
	return withMethod(e, method)
}

// withMethod adds the RPC method to the ErrorInfo metadata of e.
func withMethod(e *apiError, method string) *apiError {
	if method != "" {
		e.Error.Details[0].(errorInfo).Metadata["method"] = method
	}
	return e
}
