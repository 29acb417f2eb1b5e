package script

import (
	"net/http"
	"slices"
	"strings"
)

// userinfo is the answer of /oauth/userinfo, in the shape of Google's.
type userinfo struct {
	Sub           string `json:"sub"`
	Email         string `json:"email"`
	EmailVerified bool   `json:"email_verified"`
}

// serveUserinfo answers GET /oauth/userinfo with the signed-in account, for a bearer access
// token that carries the userinfo.email scope.
func (as *authServer) serveUserinfo(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		w.Header().Set("Allow", "GET, POST")
		writeOAuthError(w, http.StatusMethodNotAllowed, "invalid_request", "The userinfo endpoint takes GET.")
		return
	}
	scheme, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	state, scopes := tokenUnknown, []string(nil)
	if strings.EqualFold(scheme, "Bearer") && tok != "" {
		state, scopes = as.lookup(strings.TrimSpace(tok))
	}
	switch {
	case state != tokenValid:
		w.Header().Set("WWW-Authenticate", `Bearer realm="`+issuer(r)+`", error="invalid_token"`)
		writeOAuthError(w, http.StatusUnauthorized, "invalid_token", "The access token is missing, expired or revoked.")
	case !slices.Contains(scopes, scopeUserinfoEmail):
		writeError(w, scopeInsufficient("", "oauth2.googleapis.com"))
	default:
		w.Header().Set("Cache-Control", "no-store")
		writeJSON(w, http.StatusOK, userinfo{Sub: sandboxSubject, Email: SandboxAccount, EmailVerified: true})
	}
}
