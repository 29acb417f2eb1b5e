package access

import (
	"net/http"
	"strings"
)

// AppCSP is the Content-Security-Policy of the app's pages: go-app's scripts and the wasm
// ('wasm-unsafe-eval' lets WebAssembly compile; no other script runs), its stylesheets and the
// inline style attributes go-app's Style sets (style-src-attr, never <style> or script), images
// from the API responses (https: and data:), calls to Loupe itself only, go-app's service worker
// and manifest, and the /preview iframe. No page may frame it.
const AppCSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; style-src-attr 'unsafe-inline'; " +
	"img-src 'self' data: https:; font-src 'self'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; " +
	"frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// DataCSP is the policy of API answers (/proxy/, /sandbox/, the catalog): an answer opened as a
// page runs nothing and loads nothing, in a sandbox with no origin.
const DataCSP = "default-src 'none'; sandbox; frame-ancestors 'none'"

// PreviewCSP is the policy of /preview, where generated HTML (a chat answer's app, an API's
// HTML) runs: in a sandbox without Loupe's origin (no cookies, no storage, no calls to Loupe),
// its own inline scripts and styles allowed, nothing loaded from the network but images, and
// only Loupe's own pages may frame it.
const PreviewCSP = "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; " +
	"img-src data: https:; frame-ancestors 'self'"

// PreviewPath is where the preview page is served.
const PreviewPath = "/preview"

// SecurityHeaders sets on every response: the Content-Security-Policy for its kind (a handler
// may set a stricter one, as the login page does), nosniff, no Referer to other sites and no
// framing by other sites.
func SecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		p := r.URL.Path
		switch {
		case p == PreviewPath:
			h.Set("Content-Security-Policy", PreviewCSP)
			h.Set("X-Frame-Options", "SAMEORIGIN")
		case strings.HasPrefix(p, "/proxy/") || strings.HasPrefix(p, "/sandbox/") || p == "/catalog.json" || strings.HasPrefix(p, "/openapi/"):
			h.Set("Content-Security-Policy", DataCSP)
			h.Set("X-Frame-Options", "DENY")
		default:
			h.Set("Content-Security-Policy", AppCSP)
			h.Set("X-Frame-Options", "DENY")
			h.Set("Cross-Origin-Opener-Policy", "same-origin")
		}
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}
