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
	// Content is the content directory (content.FS), whose walkthroughs/ the walkthrough
	// service loads. Required.
	Content fs.FS
	// Catalog returns the compiled catalog the walkthroughs are checked against: the one the
	// page shows (the static site's catalog.json). It is called on the first walkthrough
	// request, and again on the next one when it or loading the walkthroughs failed. Required.
	Catalog func(ctx context.Context) (*catalog.Catalog, error)
	// Document fetches a file of the site by its root-relative path (a walkthrough's
	// /arazzo/<id>.arazzo.yaml): the catalog's walkthroughs that are not built in (the
	// configuration's, written by `loupe static -config`) load from there. Nil means only the
	// built-in walkthroughs load.
	Document func(ctx context.Context, path string) ([]byte, error)
}

// Site answers, where no Loupe server runs (the static explorer's sandbox module), every request
// the app sends to a Loupe server besides its files: /proxy/<slug>/… through the sandboxes, the
// walkthrough runner's and recorder's POST /walkthroughs/…, the script workspace's POST
// /tools/script/syntax and what the sandbox of an API of your own inferred, GET
// /sandbox/<slug>/_sandbox/inference, with the server's own handlers (walkthrough.Service,
// script.SyntaxChecker, the fromdoc sandbox), so that both modes judge a step and check a
// script alike.
func Site(opts SiteOptions) http.Handler {
	walks := &lazyWalkthroughs{content: opts.Content, catalog: opts.Catalog, document: opts.Document}
	svc := &walkthrough.Service{Set: walks.set, Catalog: walks.catalogOf}
	mux := http.NewServeMux()
	mux.Handle(script.SyntaxCheckPath, script.SyntaxChecker())
	svc.Register(mux)
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
				": it answers /proxy/<api>/<path>, POST /walkthroughs/<id>/run, POST /walkthroughs/run, /check and /record, POST " + script.SyntaxCheckPath +
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

// lazyWalkthroughs holds the walkthroughs, loaded on the first walkthrough request: most
// visits run none, and loading needs the catalog.
type lazyWalkthroughs struct {
	content  fs.FS
	catalog  func(ctx context.Context) (*catalog.Catalog, error)
	document func(ctx context.Context, path string) ([]byte, error)

	mu    sync.Mutex
	cat   *catalog.Catalog // nil until a load succeeds
	walks *walkthrough.Set
}

// set returns the walkthroughs, loading them once; a failed load is tried again on the next
// request.
func (l *lazyWalkthroughs) set(ctx context.Context) (*walkthrough.Set, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.walks != nil {
		return l.walks, nil
	}
	if l.catalog == nil || l.content == nil {
		return nil, errors.New("the sandbox module was built without the catalog or the content")
	}
	cat, err := l.catalog(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the catalog: %w", err)
	}
	builtIn, err := walkthrough.Load(l.content, cat)
	if err != nil {
		return nil, fmt.Errorf("loading the walkthroughs: %w", err)
	}
	var files []walkthrough.File
	for _, w := range cat.Walkthroughs {
		if builtIn.Get(w.ID) != nil || w.Document == "" {
			continue
		}
		if l.document == nil {
			return nil, fmt.Errorf("walkthrough %s is not built in, and this module cannot fetch its document %s", w.ID, w.Document)
		}
		data, err := l.document(ctx, w.Document)
		if err != nil {
			return nil, fmt.Errorf("fetching walkthrough %s: %w", w.ID, err)
		}
		// Its source descriptions are matched as the static site's build matched them: the
		// files they name were on the machine that built the site.
		files = append(files, walkthrough.File{Name: strings.TrimPrefix(w.Document, "/"), Data: data, Sources: w.Sources})
	}
	own, err := walkthrough.LoadFiles(files, cat, walkthrough.Sources{})
	if err != nil {
		return nil, fmt.Errorf("loading the walkthroughs of the configuration: %w", err)
	}
	l.cat, l.walks = cat, builtIn.Join(own)
	return l.walks, nil
}

// catalogOf returns the catalog the walkthroughs were checked against, loading them first.
func (l *lazyWalkthroughs) catalogOf(ctx context.Context) (*catalog.Catalog, error) {
	if _, err := l.set(ctx); err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cat, nil
}
