// Package catalog loads the OpenAPI 3.1 documents content/openapi/<slug>.yaml and the guides
// content/guides/<slug>.md and compiles them into the catalog the UI reads (package
// loupe/app/catalog), served as /catalog.json by Handler.
//
// Loading is strict: a document must parse, build and validate with libopenapi and
// libopenapi-validator without a single error, and must follow Loupe's conventions: a
// unique operationId, a summary and a response on every operation, an example for every
// body and response content, JSON examples that match their schemas, known x-loupe-* values,
// pagination fields that exist. Every problem is reported as
// "content/openapi/<slug>.yaml:<line>: what is wrong", all of them in one error.
package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"loupe/app/catalog"
)

// slugOrder lists the APIs in catalog order (the DESIGN.md slug table). Documents with other
// slugs follow them, sorted by name.
var slugOrder = []string{"script", "chat", "entities", "docs", "cluster", "pagination", "reports"}

// displayRoot prefixes file names in errors: the fs.FS Load reads is the content directory.
const displayRoot = "content"

// Load reads openapi/*.yaml and guides/*.md from fsys (the content directory: content.FS)
// and compiles the catalog. Every document must have a guide of the same slug. The error,
// when there is one, joins every problem of every file, each as "file:line: message".
func Load(fsys fs.FS) (*catalog.Catalog, error) {
	names, err := fs.Glob(fsys, "openapi/*.yaml")
	if err != nil {
		return nil, fmt.Errorf("catalog: list documents: %w", err)
	}
	if len(names) == 0 {
		return nil, errors.New("catalog: no documents in openapi/")
	}
	slugs := orderSlugs(names)
	hash := sha256.New()
	c := &catalog.Catalog{APIs: make([]catalog.API, 0, len(slugs))}
	var errs []error
	for _, slug := range slugs {
		api, data, err := loadAPI(fsys, slug)
		for _, d := range data {
			fmt.Fprintf(hash, "%s %d\n", d.name, len(d.bytes))
			hash.Write(d.bytes)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c.APIs = append(c.APIs, api)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	c.Version = hex.EncodeToString(hash.Sum(nil))[:12]
	return c, nil
}

// source is a file read for an API, kept for the catalog version hash.
type source struct {
	name  string
	bytes []byte
}

// loadAPI reads and compiles one API's document and guide.
func loadAPI(fsys fs.FS, slug string) (catalog.API, []source, error) {
	docName := "openapi/" + slug + ".yaml"
	guideName := "guides/" + slug + ".md"
	doc, err := fs.ReadFile(fsys, docName)
	if err != nil {
		return catalog.API{}, nil, fmt.Errorf("%s: %w", path.Join(displayRoot, docName), err)
	}
	read := []source{{docName, doc}}
	api, docErr := compileDocument(slug, path.Join(displayRoot, docName), doc)
	guide, err := fs.ReadFile(fsys, guideName)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = errors.New("missing guide: every API needs one")
		}
		err = &Error{File: path.Join(displayRoot, guideName), Msg: err.Error()}
		return catalog.API{}, read, errors.Join(docErr, err)
	}
	read = append(read, source{guideName, guide})
	if docErr != nil {
		return catalog.API{}, read, docErr
	}
	if api.GuideHTML, err = renderMarkdown(string(guide)); err != nil {
		return catalog.API{}, read, &Error{File: path.Join(displayRoot, guideName), Msg: err.Error()}
	}
	return api, read, nil
}

// orderSlugs returns the slugs of the document files: the known ones in catalog order, then
// the others sorted.
func orderSlugs(names []string) []string {
	var known, other []string
	present := map[string]bool{}
	for _, n := range names {
		slug := strings.TrimSuffix(path.Base(n), ".yaml")
		present[slug] = true
		if !slices.Contains(slugOrder, slug) {
			other = append(other, slug)
		}
	}
	for _, s := range slugOrder {
		if present[s] {
			known = append(known, s)
		}
	}
	slices.Sort(other)
	return append(known, other...)
}
