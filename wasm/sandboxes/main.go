//go:build js && wasm

// Command sandboxes is the static explorer's sandbox module: the built-in sandbox of every API
// (the same packages as server/sandbox/<slug>), and for each API of your own the catalog lists
// the sandbox built from its document (server/sandbox/fromdoc, the document fetched from the
// site's /openapi/<slug>.yaml on its first call, with the configured hints the site wrote
// beside it), compiled to a WebAssembly module of its own that the app fetches on the first
// Send (app/fetch). It registers one global object,
//
//	loupeSandbox.fetch(path, base, init) -> Promise<Response>
//	loupeSandbox.reset(slug) -> "" or an error message ("" slug: every API)
//
// where path is /proxy/<slug>/<path>?<query> as the app sends it to a Loupe server, or one of
// the server's own tools, POST /walkthroughs/…, POST /tools/script/syntax and GET
// /sandbox/<slug>/_sandbox/inference (all.Site; the walkthroughs load on the first walkthrough
// request, against the site's catalog.json and the site's /arazzo/ documents), base the
// site's sub-path ("" at the root of a host) and init a fetch init (method, headers, body,
// signal). The answer is a real Response whose body is a ReadableStream fed as the handler
// writes, so an event stream arrives event by event; aborting the signal or cancelling the body
// cancels the request's context. Then it calls loupeSandboxReady() when the page defined it.
package main

import (
	"strings"
	"syscall/js"

	"loupe/content"
	"loupe/server/sandbox/all"
)

func main() {
	proxy, err := all.NewProxy(all.Options{Content: content.FS, ChatTokensPerSecond: 40, OwnDocument: loadOwnDocument, OwnHints: loadHints}, loadCatalog)
	if err != nil {
		js.Global().Get("console").Call("error", "the Loupe sandbox module could not start: "+err.Error())
		if ready := js.Global().Get("loupeSandboxReady"); ready.Type() == js.TypeFunction {
			ready.Invoke(err.Error())
		}
		return
	}
	site := all.Site(all.SiteOptions{Proxy: proxy, Content: content.FS, Catalog: loadCatalog, Document: loadDocument})
	obj := js.Global().Get("Object").New()
	obj.Set("fetch", js.FuncOf(func(_ js.Value, args []js.Value) any {
		siteBase.Store(strings.TrimRight(args[1].String(), "/"))
		return serve(site, args[0].String(), args[1].String(), args[2])
	}))
	obj.Set("reset", js.FuncOf(func(_ js.Value, args []js.Value) any {
		slug := ""
		if len(args) > 0 && args[0].Type() == js.TypeString {
			slug = args[0].String()
		}
		if err := proxy.Reset(slug); err != nil {
			return err.Error()
		}
		return ""
	}))
	js.Global().Set("loupeSandbox", obj)
	if ready := js.Global().Get("loupeSandboxReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // serve until the page goes away
}
