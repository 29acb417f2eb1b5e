package server

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"loupe/server/walkthrough"
)

// walkSet holds the walkthroughs: the built-in ones (content/walkthroughs) and those the
// configuration names (walkthroughs:), which a reload replaces.
type walkSet struct {
	builtIn *walkthrough.Set

	mu  sync.RWMutex
	all *walkthrough.Set // builtIn joined with the configuration's; nil until set
}

// Walkthroughs returns the walkthroughs: the built-in ones, then the configuration's.
func (s *Server) Walkthroughs() *walkthrough.Set {
	s.walks.mu.RLock()
	defer s.walks.mu.RUnlock()
	if s.walks.all == nil {
		return s.walks.builtIn
	}
	return s.walks.all
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
	set, err := walkthrough.LoadFiles([]walkthrough.File{{Name: abs, Display: file, Data: data}}, s.catalog, s.walkSources())
	if err != nil {
		return nil, err
	}
	return set.List()[0], nil
}

// walkSources matches the configuration's walkthroughs' source descriptions to the APIs: the
// documents of your own APIs by their files.
func (s *Server) walkSources() walkthrough.Sources {
	docs := map[string]string{}
	for slug, path := range s.cfg.Settings.Documents() {
		if abs, err := filepath.Abs(path); err == nil {
			docs[abs] = slug
		}
	}
	return walkthrough.Sources{Documents: docs}
}
