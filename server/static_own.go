package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"loupe/app/catalog"
	servercatalog "loupe/server/catalog"
	"loupe/server/config"
	"loupe/server/sandbox/all"
	"loupe/server/sandbox/state"
)

// staticOwn adds the APIs of your own that settings configures (apis.<slug>.openapi) to a
// static build's catalog, as the server loads them (LoadOwn, with the same document limits),
// and returns their documents by slug and the files the site needs for their in-browser
// sandboxes beyond the documents: each configured apis.<slug>.sandbox_hints as JSON at
// all.OwnHintsPath. Every API of your own is marked OwnSandbox, since the site's sandbox module
// answers each one; one with a base_url gets it as its first server, the address the page's
// "Use the real API" form offers (as for a built-in API, whose document names its server).
func staticOwn(cat *catalog.Catalog, settings *config.Config) (map[string][]byte, map[string][]byte, error) {
	if settings == nil {
		return nil, nil, nil
	}
	lim := settings.Server.Limits
	docs, err := servercatalog.LoadOwnDocuments(cat, ownAPIs(settings), servercatalog.Limits{MaxBytes: lim.MaxDocument, BuildTimeout: lim.DocumentBuildTimeout})
	if err != nil {
		return nil, nil, err
	}
	files := map[string][]byte{}
	for i := range cat.APIs {
		api := &cat.APIs[i]
		a := settings.APIs[api.Slug]
		if !api.Own || a == nil {
			continue
		}
		api.OwnSandbox = true
		if base := strings.TrimRight(a.BaseURL, "/"); base != "" {
			api.Servers = append([]string{base}, slices.DeleteFunc(api.Servers, func(s string) bool {
				return strings.TrimRight(s, "/") == base
			})...)
		}
		// Built once here, as the server does at its start, so that a document or hints the
		// sandbox cannot take fail the build rather than the site's first Send.
		if _, err := all.Own(all.OwnOptions{Slug: api.Slug, File: a.OpenAPI, Document: docs[api.Slug].Data, Hints: a.SandboxHints,
			Registry: all.NewRegistry(state.Limits{})}); err != nil {
			return nil, nil, fmt.Errorf("the sandbox of apis.%s: %w", api.Slug, err)
		}
		if a.SandboxHints != nil {
			data, err := json.Marshal(a.SandboxHints)
			if err != nil {
				return nil, nil, fmt.Errorf("apis.%s.sandbox_hints: %w", api.Slug, err)
			}
			files[all.OwnHintsPath(api.Slug)] = data
		}
	}
	return servercatalog.OwnBytes(docs), files, nil
}
