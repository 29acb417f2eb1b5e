package all

import (
	"fmt"
	"net/http"

	"loupe/server/catalog"
	"loupe/server/sandbox/fromdoc"
	"loupe/server/sandbox/state"
)

// OwnOptions configures Own.
type OwnOptions struct {
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

// Own builds the sandbox of an API of your own from its document alone (server/sandbox/fromdoc),
// as both hosts do: the Loupe server for an API with no base_url, and the static explorer's
// sandbox module for every API of your own its catalog lists.
func Own(opts OwnOptions) (*fromdoc.Sandbox, error) {
	var doc *fromdoc.Document
	var err error
	if opts.Built != nil {
		doc, err = fromdoc.FromBuilt(opts.Built)
	} else {
		doc, err = fromdoc.Load(opts.File, opts.Document)
	}
	if err != nil {
		return nil, err
	}
	hints, err := fromdoc.ParseHints(opts.Hints)
	if err != nil {
		return nil, fmt.Errorf("apis.%s.sandbox_hints: %w", opts.Slug, err)
	}
	sb, err := fromdoc.New(fromdoc.Options{Name: opts.Slug, Document: doc, Registry: opts.Registry, Hints: hints})
	if err != nil {
		return nil, err
	}
	return sb, nil
}

var _ http.Handler = (*fromdoc.Sandbox)(nil)
