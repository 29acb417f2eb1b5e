package walkthrough

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"path"
	"strings"
	"sync"

	"loupe/app/catalog"
)

// maxDocument bounds a document a request carries: the Arazzo specification's largest example
// is 20 KB, a long recorded walkthrough a few hundred.
const maxDocument = 4 << 20

// cacheSize is how many documents carried by requests stay loaded: a run posts its document
// with every step, and loading one takes milliseconds that a step need not repeat.
const cacheSize = 8

// docCache keeps the documents last loaded from requests, each with its problems.
type docCache struct {
	mu      sync.Mutex
	entries []cachedDoc // the most recently used last
}

type cachedDoc struct {
	key      string
	w        *Walkthrough
	problems []catalog.WalkProblem
}

// load loads a document a request carries, as the configuration's walkthroughs are loaded:
// its problems are returned, each at its place; err says the catalog could not be had.
func (s *Service) load(ctx context.Context, doc, name, origin string) (*Walkthrough, []catalog.WalkProblem, error) {
	file := fileName(name)
	switch {
	case strings.TrimSpace(doc) == "":
		return nil, []catalog.WalkProblem{{Message: "the document is empty: open an Arazzo file (.arazzo.yaml or .arazzo.json), or paste one"}}, nil
	case len(doc) > maxDocument:
		return nil, []catalog.WalkProblem{{Message: fmt.Sprintf("the document is larger than %d MiB: a walkthrough this large is not one a person follows", maxDocument>>20)}}, nil
	}
	cat, err := s.Catalog(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the catalog: %w", err)
	}
	origin = strings.TrimRight(origin, "/")
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", cat.Version, file, origin)
	h.Write([]byte(doc))
	key := hex.EncodeToString(h.Sum(nil))
	if c, ok := s.docs.get(key); ok {
		return c.w, c.problems, nil
	}
	c := cachedDoc{key: key}
	// The document is placed where the built-in ones are, so that a source url written as
	// theirs (../openapi/<slug>.yaml) finds its API as it does in content/walkthroughs.
	c.w, err = parse(File{Name: "walkthroughs/" + file, Display: file, Data: []byte(doc)}, cat, s.inlineSources(cat, origin))
	if err != nil {
		c.w, c.problems = nil, Problems(err)
	}
	s.docs.put(c)
	return c.w, c.problems, nil
}

// inlineSources matches the source descriptions of a document a request carries: the
// service's own Sources, then the OpenAPI documents the page's server serves, by their URL
// (origin/openapi/<slug>.yaml, as a recorded walkthrough names them) and as the built-in
// walkthroughs name them (../openapi/<slug>.yaml); a source named after an API's slug is
// matched by the loader itself.
func (s *Service) inlineSources(cat *catalog.Catalog, origin string) Sources {
	var src Sources
	if s.Sources != nil {
		src = s.Sources()
	}
	docs := maps.Clone(src.Documents)
	if docs == nil {
		docs = map[string]string{}
	}
	for _, a := range cat.APIs {
		docs["openapi/"+a.Slug+".yaml"] = a.Slug
		if origin != "" {
			docs[origin+"/openapi/"+a.Slug+".yaml"] = a.Slug
		}
	}
	return Sources{Names: src.Names, Documents: docs}
}

// fileName is the base of a document's file name, with an Arazzo suffix: it gives the
// walkthrough's id.
func fileName(name string) string {
	base := path.Base(strings.ReplaceAll(strings.TrimSpace(name), "\\", "/"))
	if base == "." || base == "/" || base == "" {
		base = "walkthrough"
	}
	for _, s := range Suffixes {
		if strings.HasSuffix(base, s) {
			return base
		}
	}
	return strings.TrimSuffix(base, path.Ext(base)) + ".arazzo.yaml"
}

func (c *docCache) get(key string) (cachedDoc, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.key == key {
			c.entries = append(append(c.entries[:i:i], c.entries[i+1:]...), e)
			return e, true
		}
	}
	return cachedDoc{}, false
}

func (c *docCache) put(e cachedDoc) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= cacheSize {
		c.entries = c.entries[1:]
	}
	c.entries = append(c.entries, e)
}
