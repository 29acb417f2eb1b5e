//go:build js && wasm

package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"syscall/js"
	"time"
)

// module is the sandbox module, loaded once per page on the first request it answers.
var module struct {
	sync.Mutex
	api     js.Value      // loupeSandbox, once loaded
	loading chan struct{} // closed when a load ends; nil when none runs
	err     error         // why the last load failed
}

// loadSandbox returns the sandbox module's loupeSandbox object, fetching and starting the module
// on first use. A failed load is tried again on the next request.
func loadSandbox(ctx context.Context) (js.Value, error) {
	module.Lock()
	if module.api.Truthy() {
		defer module.Unlock()
		return module.api, nil
	}
	wait := module.loading
	if wait == nil {
		wait = make(chan struct{})
		module.loading = wait
		go func() {
			api, err := startSandbox()
			module.Lock()
			module.api, module.err, module.loading = api, err, nil
			module.Unlock()
			close(wait)
		}()
	}
	module.Unlock()
	select {
	case <-wait:
	case <-ctx.Done():
		return js.Value{}, ctx.Err()
	}
	module.Lock()
	defer module.Unlock()
	if module.err != nil {
		return js.Value{}, module.err
	}
	return module.api, nil
}

// startSandbox fetches the module, instantiates it with wasm_exec.js's Go runtime (which the
// page already loaded for app.wasm) and waits for it to register loupeSandbox.
func startSandbox() (js.Value, error) {
	src := Current().SandboxModule
	if src == "" {
		return js.Value{}, errors.New("this page names no sandbox module: rebuild the site with `loupe static`")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ready := make(chan error, 1)
	var onReady js.Func
	onReady = js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeString {
			ready <- errors.New(args[0].String())
		} else {
			ready <- nil
		}
		return nil
	})
	defer onReady.Release()
	js.Global().Set("loupeSandboxReady", onReady)

	fail := func(err error) (js.Value, error) {
		return js.Value{}, fmt.Errorf("the in-browser sandboxes could not load from %s: %w", src, err)
	}
	res, err := await(ctx, js.Global().Call("fetch", src))
	if err != nil {
		return fail(err)
	}
	if !res.Get("ok").Bool() {
		return fail(fmt.Errorf("the site answered %d", res.Get("status").Int()))
	}
	buf, err := await(ctx, res.Call("arrayBuffer"))
	if err != nil {
		return fail(err)
	}
	keepForOffline(src)
	goRuntime := js.Global().Get("Go").New()
	inst, err := await(ctx, js.Global().Get("WebAssembly").Call("instantiate", buf, goRuntime.Get("importObject")))
	if err != nil {
		return fail(err)
	}
	goRuntime.Call("run", inst.Get("instance"))
	select {
	case err := <-ready:
		if err != nil {
			return fail(err)
		}
	case <-ctx.Done():
		return fail(errors.New("it did not start within 2 minutes"))
	}
	return js.Global().Get("loupeSandbox"), nil
}

// keepForOffline has the service worker keep the module the page just fetched, for the next
// visit and for offline use. The worker is not told to fetch it at install (megabytes a visitor
// who never sends would download); it keeps what it fetches. On a first visit the page fetches
// the module before the worker controls it, so once it does (controllerchange) the module is
// fetched once more, through the worker, from the browser's HTTP cache.
func keepForOffline(src string) {
	sw := js.Global().Get("navigator").Get("serviceWorker")
	if !sw.Truthy() || sw.Get("controller").Truthy() {
		return
	}
	var onChange js.Func
	onChange = js.FuncOf(func(js.Value, []js.Value) any {
		sw.Call("removeEventListener", "controllerchange", onChange)
		onChange.Release()
		js.Global().Call("fetch", src).Call("catch", js.FuncOf(func(js.Value, []js.Value) any { return nil }))
		return nil
	})
	sw.Call("addEventListener", "controllerchange", onChange)
}

// ResetSandbox puts the in-browser sandbox of slug back to its seeded state, or every sandbox
// when slug is "". It does nothing when the module was never loaded (nothing changed yet).
func ResetSandbox(slug string) error {
	module.Lock()
	api := module.api
	module.Unlock()
	if !api.Truthy() {
		return nil
	}
	if msg := api.Call("reset", slug).String(); msg != "" {
		return errors.New(msg)
	}
	return nil
}

// blockedError explains a real API call the browser refused or could not make.
func blockedError(target string) error {
	host := target
	if u, err := url.Parse(target); err == nil {
		host = u.Scheme + "://" + u.Host
	}
	origin := js.Global().Get("location").Get("origin").String()
	return fmt.Errorf("the browser blocked the call to %s or could not reach it. Most often this is CORS: "+
		"the API does not allow calls from %s. Either the API must allow this origin, or run the Loupe "+
		"server (`make run`), which holds keys and calls APIs without CORS", host, origin)
}
