// Package sandbox mounts the built-in implementation of every API under /sandbox/<slug>/, on
// the same paths as the real API, so an official client pointed at /sandbox/<slug> works.
// Each API's behaviour lives in its own package, server/sandbox/<slug>.
package sandbox

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"

	"loupe/server/sandbox/state"
)

// DefaultKey is the credential every built-in sandbox accepts unless configured otherwise, and
// the one the default proxy configuration sends. It is documented in README.md; it guards
// nothing, it only lets the sandboxes check credentials the way the real APIs do.
const DefaultKey = "loupe-sandbox-key"

// Mux routes /sandbox/<slug>/... to the handler of that API, with the prefix stripped.
type Mux struct {
	apis map[string]http.Handler
	// Registry, when set, holds the sandboxes' per-session state: the Mux then answers
	// POST /sandbox/<slug>/_sandbox/reset (state.ResetPath) for every mounted API.
	Registry *state.Registry
}

// NewMux returns a Mux serving the given APIs, keyed by slug.
func NewMux(apis map[string]http.Handler) *Mux {
	return &Mux{apis: apis}
}

// Slugs lists the mounted APIs, sorted.
func (m *Mux) Slugs() []string {
	out := make([]string, 0, len(m.apis))
	for s := range m.apis {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// ServeHTTP implements http.Handler.
func (m *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, "/sandbox/")
	slug, _, _ := strings.Cut(rest, "/")
	h, ok := m.apis[slug]
	if !ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotImplemented)
		_ = json.NewEncoder(w).Encode(map[string]string{
			"error": "Loupe has no built-in sandbox for " + strconvQuote(slug) + " yet (built in: " +
				strings.Join(m.Slugs(), ", ") + "). To try this API, point it at the real service: " +
				"set LOUPE_" + strings.ToUpper(slug) + "_URL and its credential (see README.md, Configuration).",
		})
		return
	}
	if m.Registry != nil && r.URL.Path == "/sandbox/"+slug+state.ResetPath {
		state.ServeReset(w, r, m.Registry, slug)
		return
	}
	http.StripPrefix("/sandbox/"+slug, h).ServeHTTP(w, r)
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }
