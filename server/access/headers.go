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

// SandboxConsentPath is the script sandbox's OAuth consent page: a page with a form, which
// sets its own stricter policy (no script, only its form's targets), so it is not an API answer.
const SandboxConsentPath = "/sandbox/script/oauth/authorize"

// WebAppPrefix is where the script sandbox serves deployed web apps: pages that set their own
// policy (a page that frames the app's HTML, the HTML itself in a sandbox with no origin); an
// answer that sets none gets the API answers' policy.
const WebAppPrefix = "/sandbox/script/macros/"

// SecurityHeaders sets on every response: the Content-Security-Policy for its kind (a handler
// may set a stricter one on an app page, as the login page does), nosniff, no Referer to other
// sites and no framing by other sites. They are set before the handler runs and set again when
// the response's status is written, so a handler that clears its header map (ReverseProxy does
// after an upstream's 1xx) cannot lose them; on API answers and /preview they always win over
// the handler's. Informational replies (1xx but 101) never reach the browser: their headers come
// from an upstream and are not filtered.
func SecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &secureWriter{ResponseWriter: w, kind: kindOf(r.URL.Path)}
		sw.apply(true)
		next.ServeHTTP(sw, r)
	})
}

// pageKind is which security headers a path gets.
type pageKind int

const (
	appPage pageKind = iota
	dataPage
	previewPage
	webAppPage
)

func kindOf(p string) pageKind {
	switch {
	case p == PreviewPath:
		return previewPage
	case p == SandboxConsentPath:
		return appPage
	case strings.HasPrefix(p, WebAppPrefix):
		return webAppPage
	case strings.HasPrefix(p, "/proxy/") || strings.HasPrefix(p, "/sandbox/") || p == "/catalog.json" || strings.HasPrefix(p, "/openapi/"):
		return dataPage
	}
	return appPage
}

// secureWriter (re)applies the security headers when the status is written and drops 1xx.
type secureWriter struct {
	http.ResponseWriter
	kind  pageKind
	wrote bool
}

// kindHeaders are the security headers of each kind, canonical names with their values, built
// once: apply writes them into the header map as they are, instead of canonicalizing each name
// and allocating each value on every response (twice: before the handler and at its status).
// The first own of each may be a handler's own on an app page; the others are always set.
var kindHeaders = [...]struct {
	names, values []string
	own           int
}{
	appPage: {
		names:  []string{"Content-Security-Policy", "X-Frame-Options", "Cross-Origin-Opener-Policy", "X-Content-Type-Options", "Referrer-Policy"},
		values: []string{AppCSP, "DENY", "same-origin", "nosniff", "same-origin"},
		own:    3,
	},
	dataPage: {
		names:  []string{"Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy"},
		values: []string{DataCSP, "DENY", "nosniff", "same-origin"},
		own:    2,
	},
	previewPage: {
		names:  []string{"Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy"},
		values: []string{PreviewCSP, "SAMEORIGIN", "nosniff", "same-origin"},
		own:    2,
	},
	webAppPage: {
		names:  []string{"Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy"},
		values: []string{DataCSP, "DENY", "nosniff", "same-origin"},
		own:    2,
	},
}

// apply sets the headers of w's kind; unless force, an app page's own CSP and framing stay.
// Each value is a slice of its own (one allocation for all of them), as Header.Set makes it: a
// handler that changes a value in place changes only its response's.
func (w *secureWriter) apply(force bool) {
	h := w.ResponseWriter.Header()
	set := &kindHeaders[w.kind]
	keepOwn := !force && (w.kind == appPage || w.kind == webAppPage)
	vals := make([]string, len(set.values))
	copy(vals, set.values)
	for i, name := range set.names {
		if keepOwn && i < set.own {
			if v := h[name]; len(v) > 0 && v[0] != "" {
				continue // the page's own (h.Get(name) != "")
			}
		}
		h[name] = vals[i : i+1 : i+1]
	}
}

// WriteHeader drops an informational status and writes a final one with the headers in place.
func (w *secureWriter) WriteHeader(code int) {
	if code >= 100 && code < 200 && code != http.StatusSwitchingProtocols {
		return
	}
	if !w.wrote {
		w.wrote = true
		w.apply(false)
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write writes body bytes, the headers in place first.
func (w *secureWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.wrote = true
		w.apply(false)
	}
	return w.ResponseWriter.Write(b)
}

// Flush sends what was written, the headers in place first.
func (w *secureWriter) Flush() {
	if !w.wrote {
		w.wrote = true
		w.apply(false)
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (w *secureWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
