package server

import (
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sync"

	loupeapp "loupe/app"
	"loupe/app/catalog"
	servercatalog "loupe/server/catalog"
	"loupe/server/config"
	"loupe/server/walkthrough"
)

// walkSet holds the walkthroughs: the built-in ones (content/walkthroughs) and those the
// configuration names (walkthroughs:), which a reload replaces, with the catalog that lists
// them and its handler (/catalog.json, /catalog/, /openapi/).
type walkSet struct {
	builtIn *walkthrough.Set
	base    *catalog.Catalog // the catalog with the built-in walkthroughs only
	docs    fs.FS            // the OpenAPI documents the catalog handler exports

	mu      sync.RWMutex
	all     *walkthrough.Set // builtIn joined with the configuration's
	cat     *catalog.Catalog // the catalog listing all
	handler http.Handler     // the catalog handler over cat
}

// Walkthroughs returns the walkthroughs: the built-in ones, then the configuration's.
func (s *Server) Walkthroughs() *walkthrough.Set {
	s.walks.mu.RLock()
	defer s.walks.mu.RUnlock()
	return s.walks.all
}

// catalog returns the catalog that lists the walkthroughs now.
func (w *walkSet) catalog() *catalog.Catalog {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.cat
}

func (w *walkSet) setHandler(h http.Handler) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.handler = h
}

// serveCatalog serves the catalog handler of the current catalog.
func (w *walkSet) serveCatalog(rw http.ResponseWriter, r *http.Request) {
	w.mu.RLock()
	h := w.handler
	w.mu.RUnlock()
	h.ServeHTTP(rw, r)
}

// loadConfiguredWalkthroughs loads the documents the configuration's walkthroughs key names,
// their source descriptions matched to the catalog's APIs; an id a built-in walkthrough has is
// an error.
func loadConfiguredWalkthroughs(c *config.Config, cat *catalog.Catalog, builtIn *walkthrough.Set) (*walkthrough.Set, error) {
	files, err := c.WalkthroughFiles()
	if err != nil {
		return nil, err
	}
	var docs []walkthrough.File
	for _, f := range files {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Key, err)
		}
		abs, err := filepath.Abs(f.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Key, err)
		}
		docs = append(docs, walkthrough.File{Name: abs, Display: f.Path, Data: data, Sources: f.Sources})
	}
	set, err := walkthrough.LoadFiles(docs, cat, walkSources(c))
	if err != nil {
		return nil, fmt.Errorf("loading the configuration's walkthroughs: %w", err)
	}
	for _, w := range set.List() {
		if builtIn.Get(w.ID) != nil {
			return nil, fmt.Errorf("%s: walkthrough %s is also a built-in one's id: rename the file", w.File, w.ID)
		}
	}
	return set, nil
}

// withWalkthroughs returns a copy of the catalog listing the walkthroughs of set, its version
// following them.
func withWalkthroughs(base *catalog.Catalog, set *walkthrough.Set) (*catalog.Catalog, error) {
	c := *base
	var err error
	if c.Walkthroughs, err = walkthrough.Compile(set); err != nil {
		return nil, fmt.Errorf("compiling the walkthroughs: %w", err)
	}
	c.Version = base.Version + "-" + set.Version()
	return &c, nil
}

// reloadWalkthroughs loads the walkthroughs of a reloaded configuration and, when they all
// load, serves them and the catalog that lists them; otherwise nothing changes.
func (s *Server) reloadWalkthroughs(next *config.Config) error {
	base := s.walks.base
	configured, err := loadConfiguredWalkthroughs(next, base, s.walks.builtIn)
	if err != nil {
		return err
	}
	all := s.walks.builtIn.Join(configured)
	cat, err := withWalkthroughs(base, all)
	if err != nil {
		return err
	}
	h := newCatalogHandler(cat, s.walks.docs)
	s.walks.mu.Lock()
	defer s.walks.mu.Unlock()
	s.walks.all, s.walks.cat, s.walks.handler = all, cat, h
	loupeapp.UseCatalog(cat) // pages prerendered from now on show the new walkthroughs
	return nil
}

// LoadWalkthrough loads an Arazzo file (`loupe walk FILE`): its source descriptions are
// matched to the APIs as the configuration's walkthroughs are.
func (s *Server) LoadWalkthrough(file string) (*walkthrough.Walkthrough, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading the walkthrough: %w", err)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	set, err := walkthrough.LoadFiles([]walkthrough.File{{Name: abs, Display: file, Data: data}}, s.catalog, walkSources(s.cfg.Settings))
	if err != nil {
		return nil, err
	}
	return set.List()[0], nil
}

// walkSources matches walkthroughs' source descriptions to the APIs: the documents of your
// own APIs by their files.
func walkSources(c *config.Config) walkthrough.Sources {
	docs := map[string]string{}
	for slug, path := range c.Documents() {
		if abs, err := filepath.Abs(path); err == nil {
			docs[abs] = slug
		}
	}
	return walkthrough.Sources{Documents: docs}
}

// newCatalogHandler is the catalog handler of a catalog.
func newCatalogHandler(cat *catalog.Catalog, docs fs.FS) http.Handler {
	return servercatalog.Handler(cat, docs)
}
