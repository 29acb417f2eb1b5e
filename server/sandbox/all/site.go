package all

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
	"sync"

	"loupe/app/catalog"
	"loupe/server/sandbox/script"
	"loupe/server/walkthrough"
)

// SiteOptions configures Site.
type SiteOptions struct {
	// Proxy answers /proxy/<slug>/<path>. Required.
	Proxy *Proxy
	// Content is the content directory (content.FS), whose walkthroughs/ the step handler
	// loads. Required.
	Content fs.FS
	// Catalog returns the compiled catalog the walkthroughs are checked against: the one the
	// page shows (the static site's catalog.json). It is called on the first step request, and
	// again on the next one when it or loading the walkthroughs failed. Required.
	Catalog func(ctx context.Context) (*catalog.Catalog, error)
}

// Site answers, where no Loupe server runs (the static explorer's sandbox module), every request
// the app sends to a Loupe server besides its files: /proxy/<slug>/… through the sandboxes, the
// walkthrough runner's POST /walkthroughs/{id}/step and /run and the script workspace's POST
// /tools/script/syntax, with the server's own handlers (walkthrough.Handler,
// script.SyntaxChecker), so that both modes judge a step and check a script alike.
func Site(opts SiteOptions) http.Handler {
	walks := &lazyWalkthroughs{content: opts.Content, catalog: opts.Catalog}
	mux := http.NewServeMux()
	mux.Handle(script.SyntaxCheckPath, script.SyntaxChecker())
	mux.Handle("POST /walkthroughs/{id}/step", walks)
	mux.Handle("POST /walkthroughs/{id}/run", walks)
	// What the sandbox of an API of your own inferred of its document, for the API's page.
	mux.Handle("GET /sandbox/{slug}/_sandbox/inference", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, err := opts.Proxy.ownSandbox(r.Context(), r.PathValue("slug"))
		if err != nil || h == nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			msg := "no API of your own is called " + r.PathValue("slug")
			if err != nil {
				msg = err.Error()
			}
			_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
			return
		}
		http.StripPrefix("/sandbox/"+r.PathValue("slug"), h).ServeHTTP(w, r)
	}))
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false) // the message names <api> and <id> for a person to read
		_ = enc.Encode(map[string]string{
			"error": "the in-browser sandbox does not answer " + r.Method + " " + r.URL.Path +
				": it answers /proxy/<api>/<path>, POST /walkthroughs/<id>/step, POST /walkthroughs/<id>/run, POST " + script.SyntaxCheckPath +
				" and GET /sandbox/<api>/_sandbox/inference",
		})
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The proxy sees its requests before the mux, which would clean a path with dot
		// segments and redirect rather than let the sandbox refuse it, as on the server.
		if strings.HasPrefix(r.URL.Path, "/proxy/") {
			opts.Proxy.ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// lazyWalkthroughs is walkthrough.Handler over the walkthroughs, loaded on the first step
// request: most visits run none, and loading needs the catalog.
type lazyWalkthroughs struct {
	content fs.FS
	catalog func(ctx context.Context) (*catalog.Catalog, error)

	mu sync.Mutex
	h  http.Handler // nil until a load succeeds
}

// ServeHTTP implements http.Handler.
func (l *lazyWalkthroughs) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h, err := l.handler(r.Context())
	if err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusServiceUnavailable)
		_ = json.NewEncoder(w).Encode(catalog.WalkStepAnswer{
			Error: "The walkthroughs could not load in this browser: " + err.Error() + ". Run the step again; if it fails again, reload the page.",
		})
		return
	}
	h.ServeHTTP(w, r)
}

// handler loads the walkthroughs once; a failed load is tried again on the next request.
func (l *lazyWalkthroughs) handler(ctx context.Context) (http.Handler, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.h != nil {
		return l.h, nil
	}
	if l.catalog == nil || l.content == nil {
		return nil, errors.New("the sandbox module was built without the catalog or the content")
	}
	cat, err := l.catalog(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the catalog: %w", err)
	}
	set, err := walkthrough.Load(l.content, cat)
	if err != nil {
		return nil, fmt.Errorf("loading the walkthroughs: %w", err)
	}
	l.h = walkthrough.Handler(func() *walkthrough.Set { return set })
	return l.h, nil
}
