package all

import (
	"context"
	"net/http"

	"loupe/app/catalog"
	"loupe/server/sandbox/fromdoc"
	"loupe/server/sandbox/inpage"
)

// NewProxy builds every sandbox with its documented default credential, placed as cat's
// documents say (inpage.Proxy), and, when opts.OwnDocument is set, the sandbox of each API of
// your own cat lists on its first call; cat is called on the first request that needs it (and
// again after it failed). Without opts.Registry, their state is kept in memory for as long as
// the Proxy lives (inpage.NewRegistry). The static explorer's modules build a Proxy of one
// sandbox each (wasm/sandbox/<slug>); this one of them all is what the tests check every API
// through.
func NewProxy(opts Options, cat func(ctx context.Context) (*catalog.Catalog, error)) (*inpage.Proxy, error) {
	opts.Key = nil // the default credential, which the default configuration sends
	if opts.Registry == nil {
		opts.Registry = inpage.NewRegistry()
	}
	apis, err := New(opts)
	if err != nil {
		return nil, err
	}
	var own func(ctx context.Context, slug string) (http.Handler, error)
	if opts.OwnDocument != nil {
		own = func(ctx context.Context, slug string) (http.Handler, error) {
			return fromdoc.FromSite(ctx, slug, opts.Registry, opts.OwnDocument, opts.OwnHints)
		}
	}
	return inpage.NewProxy(inpage.ProxyOptions{APIs: apis, Own: own, Registry: opts.Registry, Catalog: cat})
}
