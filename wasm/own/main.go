//go:build js && wasm

// Command own is the static explorer's sandbox module of the APIs of your own (the ones
// `loupe static -config` added): the app fetches it on the first Send of such an API, or when
// the API's page asks what its sandbox inferred (app/fetch). For each API of your own the
// catalog lists it builds, on the API's first call, the sandbox of its document
// (server/sandbox/fromdoc, the document fetched from the site's /openapi/<slug>.yaml with the
// configured hints the site wrote beside it), and answers /proxy/<slug>/… and GET
// /sandbox/<slug>/_sandbox/inference as the Loupe server does.
package main

import (
	"context"
	"net/http"

	"loupe/server/sandbox/fromdoc"
	"loupe/server/sandbox/inpage"
	"loupe/wasm/internal/bridge"
)

func main() {
	reg := inpage.NewRegistry()
	proxy, err := inpage.NewProxy(inpage.ProxyOptions{
		Own: func(ctx context.Context, slug string) (http.Handler, error) {
			return fromdoc.FromSite(ctx, slug, reg, bridge.LoadOwnDocument, bridge.LoadHints)
		},
		Registry: reg,
		Catalog:  bridge.LoadCatalog,
	})
	if err != nil {
		bridge.Fail("the Loupe sandbox module of the APIs of your own could not start", err)
		return
	}
	mux := http.NewServeMux()
	mux.Handle(inpage.InferencePath, inpage.Inference(proxy))
	bridge.Serve(inpage.Handler(proxy, mux, "/proxy/<api>/<path> and GET /sandbox/<api>/_sandbox/inference for the APIs of your own"), proxy.Reset)
}
