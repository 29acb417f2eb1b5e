package script

import "net/http"

// authMetadata is the authorization server's metadata document (RFC 8414 §2).
type authMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RevocationEndpoint                string   `json:"revocation_endpoint"`
	UserinfoEndpoint                  string   `json:"userinfo_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported"`
	ResponseTypesSupported            []string `json:"response_types_supported"`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	RevocationEndpointAuthMethods     []string `json:"revocation_endpoint_auth_methods_supported"`
}

// serveMetadata answers GET /.well-known/oauth-authorization-server with the endpoints under
// the issuer the request reached.
func (as *authServer) serveMetadata(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeOAuthError(w, http.StatusMethodNotAllowed, "invalid_request", "The metadata is read with GET.")
		return
	}
	iss := issuer(r)
	scopes := make([]string, len(Scopes))
	for i, s := range Scopes {
		scopes[i] = s.Name
	}
	w.Header().Set("Cache-Control", "no-cache")
	writeJSON(w, http.StatusOK, authMetadata{
		Issuer:                            iss,
		AuthorizationEndpoint:             iss + "/oauth/authorize",
		TokenEndpoint:                     iss + "/oauth/token",
		RevocationEndpoint:                iss + "/oauth/revoke",
		UserinfoEndpoint:                  iss + "/oauth/userinfo",
		ScopesSupported:                   scopes,
		ResponseTypesSupported:            []string{"code"},
		GrantTypesSupported:               []string{"authorization_code", "refresh_token"},
		CodeChallengeMethodsSupported:     []string{"S256"},
		TokenEndpointAuthMethodsSupported: []string{"client_secret_basic", "client_secret_post"},
		RevocationEndpointAuthMethods:     []string{"none", "client_secret_basic", "client_secret_post"},
	})
}
