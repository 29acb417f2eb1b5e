//go:build js && wasm

// Package bridge is what every sandbox module of the static explorer shares (wasm/sandbox/<slug>,
// wasm/own, wasm/walkthroughs): it answers the page's requests with a Go http.Handler
// and registers the module's one global object,
//
//	loupeSandbox.fetch(path, base, init) -> Promise<Response>
//	loupeSandbox.reset(slug) -> "" or an error message ("" slug: every API of the module)
//
// where path is what the app sends to a Loupe server (/proxy/<slug>/<path>?<query>, or one of
// the server's own tools), base the site's sub-path ("" at the root of a host) and init a fetch
// init (method, headers, body, signal). The answer is a real Response whose body is a
// ReadableStream fed as the handler writes, so an event stream arrives event by event;
// aborting the signal or cancelling the body cancels the request's context. Then it calls
// loupeSandboxReady() when the page defined it. The page (app/fetch) starts one module at a
// time and takes loupeSandbox as soon as the module is ready, so every module registers under
// the same name.
package bridge

import (
	"net/http"
	"strings"
	"syscall/js"
)

// Serve registers loupeSandbox over h, reset answering its reset (nil: a module with no
// state, whose reset does nothing), tells the page the module is ready and serves until the
// page goes away.
func Serve(h http.Handler, reset func(slug string) error) {
	obj := js.Global().Get("Object").New()
	obj.Set("fetch", js.FuncOf(func(_ js.Value, args []js.Value) any {
		siteBase.Store(strings.TrimRight(args[1].String(), "/"))
		return serve(h, args[0].String(), args[1].String(), args[2])
	}))
	obj.Set("reset", js.FuncOf(func(_ js.Value, args []js.Value) any {
		slug := ""
		if len(args) > 0 && args[0].Type() == js.TypeString {
			slug = args[0].String()
		}
		if reset == nil {
			return ""
		}
		if err := reset(slug); err != nil {
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

// Fail tells the page the module could not start (what), and returns.
func Fail(what string, err error) {
	msg := what + ": " + err.Error()
	js.Global().Get("console").Call("error", msg)
	if ready := js.Global().Get("loupeSandboxReady"); ready.Type() == js.TypeFunction {
		ready.Invoke(msg)
	}
}
