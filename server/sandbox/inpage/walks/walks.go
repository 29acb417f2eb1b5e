// Package walks is the walkthrough engine of the static explorer (wasm/walkthroughs): the
// server's walkthrough service (server/walkthrough), its walkthroughs loaded on the first
// walkthrough request from the content and the site's catalog. It sends no request itself: the
// app sends each step's call (through the sandbox module of that step's API) and posts the
// answer back to be judged, so the engine holds no sandbox.
package walks

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
	"sync"

	"loupe/app/catalog"
	"loupe/server/walkthrough"
)

// Options configures Register.
type Options struct {
	// Content is the content directory (content.FS), whose walkthroughs/ load. Required.
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

// Answers says what Register's routes answer, for a 404's message.
const Answers = "POST /walkthroughs/<id>/run, POST /walkthroughs/run, /check and /record"

// Register adds the walkthrough service's routes (POST /walkthroughs/…) to mux.
func Register(mux *http.ServeMux, opts Options) {
	l := &lazy{content: opts.Content, catalog: opts.Catalog, document: opts.Document}
	svc := &walkthrough.Service{Set: l.set, Catalog: l.catalogOf}
	svc.Register(mux)
}

// lazy holds the walkthroughs, loaded on the first walkthrough request: most visits run none,
// and loading needs the catalog.
type lazy struct {
	content  fs.FS
	catalog  func(ctx context.Context) (*catalog.Catalog, error)
	document func(ctx context.Context, path string) ([]byte, error)

	mu    sync.Mutex
	cat   *catalog.Catalog // nil until a load succeeds
	walks *walkthrough.Set
}

// set returns the walkthroughs, loading them once; a failed load is tried again on the next
// request.
func (l *lazy) set(ctx context.Context) (*walkthrough.Set, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.walks != nil {
		return l.walks, nil
	}
	if l.catalog == nil || l.content == nil {
		return nil, errors.New("the walkthrough module was built without the catalog or the content")
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
func (l *lazy) catalogOf(ctx context.Context) (*catalog.Catalog, error) {
	if _, err := l.set(ctx); err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cat, nil
}
