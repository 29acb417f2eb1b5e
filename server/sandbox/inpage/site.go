package inpage

import (
	"net/http"
	"strings"
)

// OwnHintsPath is where a static site keeps the configured sandbox hints of the API of your
// own slug, as JSON, beside its document (/openapi/<slug>.yaml); an API with none has no file.
func OwnHintsPath(slug string) string { return "/openapi/" + slug + ".sandbox-hints.json" }

// Handler answers a module's requests: /proxy/<slug>/… through proxy when it is not nil, the
// rest through mux when it is not nil, and what neither answers with a 404 that says what
// the module answers (answers, such as "/proxy/chat/<path>").
func Handler(proxy http.Handler, mux *http.ServeMux, answers string) http.Handler {
	notFound := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "the in-browser sandbox does not answer "+r.Method+" "+r.URL.Path+": it answers "+answers)
	})
	if mux != nil {
		mux.Handle("/", notFound)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The proxy sees its requests before the mux, which would clean a path with dot
		// segments and redirect rather than let the sandbox refuse it, as on the server.
		switch {
		case proxy != nil && strings.HasPrefix(r.URL.Path, "/proxy/"):
			proxy.ServeHTTP(w, r)
		case mux != nil:
			mux.ServeHTTP(w, r)
		default:
			notFound(w, r)
		}
	})
}

// InferencePath is the route of what the sandbox of an API of your own inferred of its
// document, which the API's page shows.
const InferencePath = "GET /sandbox/{slug}/_sandbox/inference"

// Inference answers InferencePath from the sandbox of an API of your own that p builds.
func Inference(p *Proxy) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, err := p.OwnSandbox(r.Context(), r.PathValue("slug"))
		if err != nil || h == nil {
			msg := "no API of your own is called " + r.PathValue("slug")
			if err != nil {
				msg = err.Error()
			}
			writeError(w, http.StatusNotFound, msg)
			return
		}
		http.StripPrefix("/sandbox/"+r.PathValue("slug"), h).ServeHTTP(w, r)
	})
}
