package sandbox

import "net/http"

// DefaultKey is the credential every built-in sandbox accepts unless configured otherwise, and
// the one the default proxy configuration sends. It is documented in README.md; it guards
// nothing, it only lets the sandboxes check credentials the way the real APIs do.
const DefaultKey = "loupe-sandbox-key"

// DefaultCredential returns how the proxy adds DefaultKey to a request for the slug's sandbox,
// the way that API's security scheme says.
func DefaultCredential(slug string) func(*http.Request) {
	return Credential(slug, DefaultKey)
}

// Credential returns how to add key to a request for the given API.
func Credential(slug, key string) func(*http.Request) {
	switch slug {
	case "entities":
		return func(r *http.Request) {
			q := r.URL.Query()
			q.Set("key", key)
			r.URL.RawQuery = q.Encode()
		}
	case "reports":
		return func(r *http.Request) {
			q := r.URL.Query()
			q.Set("access_token", key)
			r.URL.RawQuery = q.Encode()
		}
	case "chat", "script":
		return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+key) }
	case "cluster":
		return func(r *http.Request) { r.Header.Set("Authorization", "ApiKey "+key) }
	default: // docs and pagination need none.
		return nil
	}
}
