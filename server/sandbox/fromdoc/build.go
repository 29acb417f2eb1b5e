package fromdoc

import (
	"context"
	"fmt"

	"loupe/server/catalog"
	"loupe/server/sandbox/state"
)

// BuildOptions configures Build.
type BuildOptions struct {
	// Slug names the API: its sandbox's state is kept under it. Required.
	Slug string
	// File names the document in errors (the configuration's apis.<slug>.openapi, or the
	// static site's /openapi/<slug>.yaml). Required.
	File string
	// Document is the OpenAPI document. Required.
	Document []byte
	// Built is the same document as the catalog parsed and built it
	// (server/catalog.LoadOwnDocuments), read instead of parsing Document again. Nil means
	// Document is parsed.
	Built *catalog.Built
	// Hints override what the sandbox infers of the document (apis.<slug>.sandbox_hints, as
	// decoded). Nil means none.
	Hints any
	// Registry keeps each session's collections. Required.
	Registry *state.Registry
}

// Build builds the sandbox of an API of your own from its document alone, as both hosts do:
// the Loupe server for an API with no base_url (server/sandbox/all.Own), and the static
// explorer's module for the APIs of your own (wasm/own).
func Build(opts BuildOptions) (*Sandbox, error) {
	var doc *Document
	var err error
	if opts.Built != nil {
		doc, err = FromBuilt(opts.Built)
	} else {
		doc, err = Load(opts.File, opts.Document)
	}
	if err != nil {
		return nil, err
	}
	hints, err := ParseHints(opts.Hints)
	if err != nil {
		return nil, fmt.Errorf("apis.%s.sandbox_hints: %w", opts.Slug, err)
	}
	return New(Options{Name: opts.Slug, Document: doc, Registry: opts.Registry, Hints: hints})
}

// FromSite builds the sandbox of the API of your own slug from what a static site holds, as the
// static explorer does on the API's first call: its document (/openapi/<slug>.yaml, which
// document returns) and its configured hints (which hints returns, nil when it has none; a nil
// hints means none at all: only the document's x-loupe-sandbox is followed).
func FromSite(ctx context.Context, slug string, registry *state.Registry,
	document func(ctx context.Context, slug string) ([]byte, error), hints func(ctx context.Context, slug string) (any, error)) (*Sandbox, error) {
	doc, err := document(ctx, slug)
	if err != nil {
		return nil, fmt.Errorf("reading its document: %w", err)
	}
	var h any
	if hints != nil {
		if h, err = hints(ctx, slug); err != nil {
			return nil, fmt.Errorf("reading its sandbox hints: %w", err)
		}
	}
	return Build(BuildOptions{Slug: slug, File: "/openapi/" + slug + ".yaml", Document: doc, Hints: h, Registry: registry})
}
