package cluster

import (
	"cmp"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"strings"
)

// The users the API keys stand for (with basic authentication, the user
// name given).
const (
	adminName  = "admin"
	readerName = "reader"
	guestName  = "guest"
)

// Roles of a user.
const (
	roleAdmin  = iota // everything
	roleReader        // read-only: health, the upgrade check, the sandbox's state
	roleGuest         // authenticated, no permission at all
)

// user is who a request authenticated as.
type user struct {
	name string
	role int
}

// authenticate reads "Authorization: ApiKey <key>" or "Authorization: Basic
// <base64 of user:key>" (scheme words case-insensitive) and reports the user
// it names, or false when the header is missing or the key is wrong.
func (h *handler) authenticate(r *http.Request) (user, bool) {
	scheme, cred, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	cred = strings.TrimSpace(cred)
	switch strings.ToLower(scheme) {
	case "apikey":
		return h.match("", cred)
	case "basic":
		raw, err := base64.StdEncoding.DecodeString(cred)
		if err != nil {
			return user{}, false
		}
		name, pass, ok := strings.Cut(string(raw), ":")
		if !ok || name == "" {
			return user{}, false
		}
		return h.match(name, pass)
	}
	return user{}, false
}

// match compares secret with the keys in constant time and returns the
// user it stands for, named name (or, when name is empty, the key's own
// user name).
func (h *handler) match(name, secret string) (user, bool) {
	if secret == "" {
		return user{}, false
	}
	for _, k := range []struct {
		key, name string
		role      int
	}{{h.key, adminName, roleAdmin}, {h.readerKey, readerName, roleReader}, {h.guestKey, guestName, roleGuest}} {
		if k.key != "" && equal(secret, k.key) {
			return user{name: cmp.Or(name, k.name), role: k.role}, true
		}
	}
	return user{}, false
}

// equal compares two secrets in constant time.
func equal(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// writeUnauthorized answers as the security plugin does without a valid
// credential: 401, a basic challenge and a plain-text body.
func writeUnauthorized(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Basic realm="OpenSearch Security"`)
	w.Header().Set("Content-Type", "text/plain; charset=UTF-8")
	w.WriteHeader(http.StatusUnauthorized)
	_, _ = w.Write([]byte("Unauthorized"))
}

// forbiddenHealth is the cluster's 403 for a user lacking
// cluster:monitor/health.
func forbiddenHealth(name string) *osError {
	return newError(http.StatusForbidden, "security_exception",
		"no permissions for [cluster:monitor/health] and User [name="+name+", backend_roles=[], requestedTenant=null]")
}

// forbiddenSecurity is the security plugin's 403 for a user without access to
// the REST API's CONFIG endpoint.
func forbiddenSecurity(name string) securityError {
	return securityError{Status: "FORBIDDEN",
		Message: "No permission to access REST API: User " + name + " with backend roles [] does not have any access to endpoint CONFIG"}
}

// forbiddenEndpoint is the security plugin's 403 for a user without access to the REST API's
// ROLES or ROLESMAPPING endpoint.
func forbiddenEndpoint(name, path string) securityError {
	endpoint := "ROLES"
	if strings.Contains(path, "rolesmapping") {
		endpoint = "ROLESMAPPING"
	}
	return securityError{Status: "FORBIDDEN",
		Message: "No permission to access REST API: User " + name + " with backend roles [] does not have any access to endpoint " + endpoint}
}
