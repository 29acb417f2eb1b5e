//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"syscall/js"

	"loupe/app/catalog"
	"loupe/server/sandbox/all"
)

// siteBase is the site's sub-path ("" at the root of a host), as the app passes it with every
// request; one value per page.
var siteBase atomic.Value

// loadCatalog fetches the compiled catalog the static site wrote, catalog.json at the site's
// base, which the page itself shows: the walkthroughs are checked against it on the first step
// request. net/http goes through the browser's fetch, so the service worker's cached copy
// answers offline.
func loadCatalog(ctx context.Context) (*catalog.Catalog, error) {
	base, _ := siteBase.Load().(string)
	u := js.Global().Get("location").Get("origin").String() + base + "/catalog.json"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("the catalog's address %s: %w", u, err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", u, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching %s: the site answered %d", u, res.StatusCode)
	}
	var cat catalog.Catalog
	if err := json.NewDecoder(res.Body).Decode(&cat); err != nil {
		return nil, fmt.Errorf("reading %s: %w", u, err)
	}
	return &cat, nil
}

// loadHints fetches the configured sandbox hints of an API of your own that the static site
// wrote (all.OwnHintsPath), decoded; nil when the site has none for it (404).
func loadHints(ctx context.Context, slug string) (any, error) {
	base, _ := siteBase.Load().(string)
	u := js.Global().Get("location").Get("origin").String() + base + all.OwnHintsPath(slug)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("the hints' address %s: %w", u, err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", u, err)
	}
	defer res.Body.Close()
	switch res.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return nil, nil
	default:
		return nil, fmt.Errorf("fetching %s: the site answered %d", u, res.StatusCode)
	}
	var hints any
	if err := json.NewDecoder(io.LimitReader(res.Body, 16<<20)).Decode(&hints); err != nil {
		return nil, fmt.Errorf("reading %s: %w", u, err)
	}
	return hints, nil
}

// loadDocument fetches a file of the site by its root-relative path (a walkthrough's document,
// /arazzo/<id>.arazzo.yaml), under the site's base.
func loadDocument(ctx context.Context, path string) ([]byte, error) {
	return loadSiteFile(ctx, path, 4<<20)
}

// loadOwnDocument fetches the OpenAPI document of an API of your own that the static site wrote,
// /openapi/<slug>.yaml at the site's base: its in-browser sandbox is built from it.
func loadOwnDocument(ctx context.Context, slug string) ([]byte, error) {
	return loadSiteFile(ctx, "/openapi/"+slug+".yaml", 64<<20)
}

// loadSiteFile fetches the file at path (root-relative) under the site's base, reading at most
// limit bytes of it.
func loadSiteFile(ctx context.Context, path string, limit int64) ([]byte, error) {
	base, _ := siteBase.Load().(string)
	u := js.Global().Get("location").Get("origin").String() + base + path
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("the address %s: %w", u, err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", u, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching %s: the site answered %d", u, res.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, limit))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", u, err)
	}
	return data, nil
}
