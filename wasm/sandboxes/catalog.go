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
	data, _, err := fetchSiteFile(ctx, "/catalog.json", 0)
	if err != nil {
		return nil, err
	}
	var cat catalog.Catalog
	if err := json.Unmarshal(data, &cat); err != nil {
		return nil, fmt.Errorf("reading %s/catalog.json: %w", siteBaseOf(), err)
	}
	return &cat, nil
}

// loadHints fetches the configured sandbox hints of an API of your own that the static site
// wrote (all.OwnHintsPath), decoded; nil when the site has none for it (404).
func loadHints(ctx context.Context, slug string) (any, error) {
	data, found, err := fetchSiteFile(ctx, all.OwnHintsPath(slug), 16<<20)
	if err != nil || !found {
		return nil, err
	}
	var hints any
	if err := json.Unmarshal(data, &hints); err != nil {
		return nil, fmt.Errorf("reading %s%s: %w", siteBaseOf(), all.OwnHintsPath(slug), err)
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
// limit bytes of it; a file the site does not have is an error.
func loadSiteFile(ctx context.Context, path string, limit int64) ([]byte, error) {
	data, found, err := fetchSiteFile(ctx, path, limit)
	if err == nil && !found {
		err = fmt.Errorf("fetching %s%s: the site answered %d", siteBaseOf(), path, http.StatusNotFound)
	}
	return data, err
}

// siteBaseOf is the site's origin and sub-path, as the page passed it.
func siteBaseOf() string {
	base, _ := siteBase.Load().(string)
	return js.Global().Get("location").Get("origin").String() + base
}

// fetchSiteFile fetches the file at path (root-relative) under the site's base, reading at
// most limit bytes of it (0: all). found is false, with no error, when the site answers 404.
// net/http goes through the browser's fetch, so the service worker's cached copy answers
// offline.
func fetchSiteFile(ctx context.Context, path string, limit int64) (data []byte, found bool, err error) {
	u := siteBaseOf() + path
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, false, fmt.Errorf("the address %s: %w", u, err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, false, fmt.Errorf("fetching %s: %w", u, err)
	}
	defer res.Body.Close()
	switch res.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return nil, false, nil
	default:
		return nil, false, fmt.Errorf("fetching %s: the site answered %d", u, res.StatusCode)
	}
	var body io.Reader = res.Body
	if limit > 0 {
		body = io.LimitReader(res.Body, limit)
	}
	if data, err = io.ReadAll(body); err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", u, err)
	}
	return data, true, nil
}
