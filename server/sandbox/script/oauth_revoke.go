package script

import "net/http"

// serveRevoke answers POST /oauth/revoke (RFC 7009): token is an access or a refresh token.
// Revoking a refresh token revokes the grant, with every access token issued from it;
// revoking an access token revokes just it. An unknown token is answered 200 too. Client
// authentication is optional (as Google's endpoint), but wrong credentials are refused, and a
// client may revoke only its own tokens.
func (as *authServer) serveRevoke(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		writeOAuthError(w, http.StatusMethodNotAllowed, "invalid_request", "The revocation endpoint takes POST.")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		writeOAuthError(w, http.StatusBadRequest, "invalid_request", "The body must be an application/x-www-form-urlencoded form.")
		return
	}
	var client string
	if _, _, basic := r.BasicAuth(); basic || r.PostForm.Get("client_id") != "" {
		c, kind, desc := as.authenticate(r)
		if kind != "" {
			code := http.StatusBadRequest
			if kind == "invalid_client" {
				code = http.StatusUnauthorized
			}
			writeOAuthError(w, code, kind, desc)
			return
		}
		client = c.ID
	}
	tok := r.PostForm.Get("token")
	if tok == "" {
		writeOAuthError(w, http.StatusBadRequest, "invalid_request", "token is missing: give the access or refresh token to revoke.")
		return
	}
	as.mu.Lock()
	if g, ok := as.findGrant(tok, false); ok && (client == "" || g.client == client) {
		as.revokeGrant(tok)
	}
	if at, ok := as.findAccess(tok); ok && (client == "" || at.client == client) {
		as.access.Delete(tok)
		as.keeper.deleteAccess(at.refresh, tok)
	}
	as.mu.Unlock()
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
}
