//go:build js && wasm

package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"syscall/js"

	"loupe/app/catalog"
	"loupe/server/sandbox/inpage"
)

// siteBase is the site's sub-path ("" at the root of a host), as the app passes it with every
// request; one value per page.
var siteBase atomic.Value

// LoadCatalog fetches the compiled catalog the static site wrote, catalog.json at the site's
// base, which the page itself shows: the walkthroughs are checked against it on the first step
// request. net/http goes through the browser's fetch, so the service worker's cached copy
// answers offline.
func LoadCatalog(ctx context.Context) (*catalog.Catalog, error) {
	data, _, err := fetchSiteFile(ctx, "/catalog.json", 0)
	if err != nil {
		return nil, err
	}
	cat, err := catalog.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("reading %s/catalog.json: %w", siteBaseOf(), err)
	}
	return cat, nil
}

// LoadHints fetches the configured sandbox hints of an API of your own that the static site
// wrote (inpage.OwnHintsPath), decoded; nil when the site has none for it (404).
func LoadHints(ctx context.Context, slug string) (any, error) {
	data, found, err := fetchSiteFile(ctx, inpage.OwnHintsPath(slug), 16<<20)
	if err != nil || !found {
		return nil, err
	}
	var hints any
	if err := json.Unmarshal(data, &hints); err != nil {
		return nil, fmt.Errorf("reading %s%s: %w", siteBaseOf(), inpage.OwnHintsPath(slug), err)
	}
	return hints, nil
}

// LoadDocument fetches a file of the site by its root-relative path (a walkthrough's document,
// /arazzo/<id>.arazzo.yaml), under the site's base.
func LoadDocument(ctx context.Context, path string) ([]byte, error) {
	return loadSiteFile(ctx, path, 4<<20)
}

// LoadOwnDocument fetches the OpenAPI document of an API of your own that the static site wrote,
// /openapi/<slug>.yaml at the site's base: its in-browser sandbox is built from it.
func LoadOwnDocument(ctx context.Context, slug string) ([]byte, error) {
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

// fetchSiteFile fetches the file at path (root-relative) under the site's base; a file larger
// than limit bytes (0: any size) is an error. found is false, with no error, when the site
// answers 404. It calls the browser's fetch itself, not net/http's client, whose transport
// would link crypto/tls and the rest of a client into every module (about a third of a
// sandbox module's bytes); the service worker's cached copy answers offline.
func fetchSiteFile(ctx context.Context, path string, limit int64) (data []byte, found bool, err error) {
	u := siteBaseOf() + path
	res, err := await(ctx, js.Global().Call("fetch", u))
	if err != nil {
		return nil, false, fmt.Errorf("fetching %s: %w", u, err)
	}
	switch status := res.Get("status").Int(); status {
	case http.StatusOK:
	case http.StatusNotFound:
		return nil, false, nil
	default:
		return nil, false, fmt.Errorf("fetching %s: the site answered %d", u, status)
	}
	buf, err := await(ctx, res.Call("arrayBuffer"))
	if err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", u, err)
	}
	u8 := js.Global().Get("Uint8Array").New(buf)
	n := u8.Get("length").Int()
	if limit > 0 && int64(n) > limit {
		return nil, false, fmt.Errorf("reading %s: it is %d bytes, more than the %d this module reads", u, n, limit)
	}
	data = make([]byte, n)
	js.CopyBytesToGo(data, u8)
	return data, true, nil
}

// await waits for a JavaScript promise: its value, or its rejection as an error, or ctx's end.
func await(ctx context.Context, promise js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	done := make(chan result, 1)
	onOK := js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- result{v: args[0]}
		return nil
	})
	onErr := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "the browser could not fetch it"
		if len(args) > 0 && args[0].Truthy() {
			msg = args[0].Call("toString").String()
		}
		done <- result{err: errors.New(msg)}
		return nil
	})
	promise.Call("then", onOK, onErr)
	select {
	case r := <-done:
		onOK.Release()
		onErr.Release()
		return r.v, r.err
	case <-ctx.Done():
		// The callbacks stay: the promise settles later and calls one of them.
		return js.Value{}, ctx.Err()
	}
}
