//go:build js && wasm

package bridge

import (
	"net/http"

	"loupe/server/sandbox/inpage"
	"loupe/server/sandbox/state"
)

// ServeSandbox is the main of a built-in API's module (wasm/sandbox/<slug>): it builds that
// API's sandbox (build, over the tab's registry), puts it behind the in-browser proxy, which adds
// its credential as the catalog places it, and serves /proxy/<slug>/… with it, and mux's routes
// besides when mux is not nil (answers names them, for a 404's message). It returns only when
// the sandbox cannot start.
func ServeSandbox(slug string, build func(reg *state.Registry) (http.Handler, error), mux *http.ServeMux, answers string) {
	reg := inpage.NewRegistry()
	h, err := build(reg)
	if err != nil {
		Fail("the Loupe sandbox module of "+slug+" could not start", err)
		return
	}
	proxy, err := inpage.NewProxy(inpage.ProxyOptions{APIs: map[string]http.Handler{slug: h}, Registry: reg, Catalog: LoadCatalog})
	if err != nil {
		Fail("the Loupe sandbox module of "+slug+" could not start", err)
		return
	}
	if answers == "" {
		answers = "/proxy/" + slug + "/<path>"
	}
	Serve(inpage.Handler(proxy, mux, answers), proxy.Reset)
}
