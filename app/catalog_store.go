package app

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/catalog"
	"loupe/app/fetch"
)

// catalogURL is where the server serves the compiled catalog. The page preloads it with a
// <link rel=preload>, so the browser fetches it while the wasm downloads.
const catalogURL = "/catalog.json"

// clientCatalog caches the catalog the browser loaded; the server uses serverCatalog instead.
var clientCatalog struct {
	sync.Mutex
	cat *catalog.Catalog
	err error
}

// currentCatalog returns the catalog the app shows: the server's when prerendering, the loaded
// one in the browser, or nil while it is not loaded.
func currentCatalog() *catalog.Catalog {
	if c := serverCatalog(); c != nil {
		return c
	}
	clientCatalog.Lock()
	defer clientCatalog.Unlock()
	return clientCatalog.cat
}

// catalogError returns why the browser could not load the catalog, or nil.
func catalogError() error {
	clientCatalog.Lock()
	defer clientCatalog.Unlock()
	return clientCatalog.err
}

// preloadCatalog loads the catalog in the browser before the app renders, so the first render
// of the wasm already shows the same sidebar as the prerendered page (no empty flash): the page
// catalog the prerendered page carries when it has one (the shell completes it once mounted,
// see wholeCatalog), else the whole catalog, whose request answers from the preload, so it costs
// no round trip. It does nothing on the server.
func preloadCatalog() {
	if !app.IsClient {
		return
	}
	if cat := readPageCatalog(); cat != nil {
		clientCatalog.Lock()
		clientCatalog.cat = cat
		clientCatalog.Unlock()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	loadCatalog(ctx)
}

// loadCatalog fetches /catalog.json and caches it (or the error).
func loadCatalog(ctx context.Context) (*catalog.Catalog, error) {
	cat, err := fetchCatalog(ctx)
	clientCatalog.Lock()
	defer clientCatalog.Unlock()
	if err == nil {
		clientCatalog.cat, clientCatalog.err = cat, nil
	} else if clientCatalog.cat == nil {
		clientCatalog.err = err
	}
	return cat, err
}

func fetchCatalog(ctx context.Context) (*catalog.Catalog, error) {
	res, err := fetch.Do(ctx, fetch.Request{URL: catalogURL})
	if err != nil {
		return nil, fmt.Errorf("the catalog could not be fetched: %w", err)
	}
	defer res.Body.Close()
	if res.Status != 200 {
		return nil, fmt.Errorf("the catalog could not be fetched: the server answered %d %s", res.Status, res.StatusText)
	}
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, fmt.Errorf("the catalog could not be read: %w", err)
	}
	cat, err := catalog.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("the catalog is not valid JSON: %w", err)
	}
	return cat, nil
}

// whole is the one fetch of the whole catalog that completes a page catalog.
var whole struct {
	sync.Mutex
	wait chan struct{} // closed when the fetch in flight ends; nil before the first and after a failure
	cat  *catalog.Catalog
	err  error
}

// wholeCatalog fetches and decodes /catalog.json once: later calls wait for that fetch and get
// its result; after a failure the next call fetches again. Call it from a goroutine (ctx.Async).
func wholeCatalog() (*catalog.Catalog, error) {
	whole.Lock()
	if whole.wait == nil {
		wait := make(chan struct{})
		whole.wait = wait
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cat, err := fetchCatalog(ctx)
			whole.Lock()
			whole.cat, whole.err = cat, err
			if err != nil {
				whole.wait = nil
			}
			whole.Unlock()
			close(wait)
		}()
	}
	wait := whole.wait
	whole.Unlock()
	<-wait
	whole.Lock()
	defer whole.Unlock()
	return whole.cat, whole.err
}

// useWholeCatalog completes the browser's page catalog with full (completeCatalog) and returns
// the catalog the app shows from now on: the same one, completed, or full when it is another
// version of the catalog. Call it on the UI goroutine (ctx.Dispatch).
func useWholeCatalog(full *catalog.Catalog) *catalog.Catalog {
	clientCatalog.Lock()
	defer clientCatalog.Unlock()
	cur := clientCatalog.cat
	switch {
	case cur != nil && cur.Page == "":
		return cur
	case cur != nil && completeCatalog(cur, full):
		return cur
	}
	clientCatalog.cat, clientCatalog.err = full, nil
	return full
}
