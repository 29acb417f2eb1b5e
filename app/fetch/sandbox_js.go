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

// modules holds the sandbox modules this page started, by URL: each is fetched and started
// once, on the first request it answers.
var modules struct {
	sync.Mutex
	api     map[string]js.Value      // loupeSandbox of each module loaded
	loading map[string]chan struct{} // closed when a module's load ends
	err     map[string]error         // why a module's last load failed
}

// starting lets one module start at a time: each registers its loupeSandbox (and calls
// loupeSandboxReady) under the same global names.
var starting sync.Mutex

// loadSandbox returns the loupeSandbox object of the module that answers route, fetching and
// starting the module on first use. A failed load is tried again on the next request.
func loadSandbox(ctx context.Context, route Route) (js.Value, error) {
	src := Current().Modules.For(route)
	if src == "" {
		what := route.URL
		if route.Slug != "" {
			what = "the " + route.Slug + " API"
		}
		return js.Value{}, fmt.Errorf("this page names no in-browser sandbox module for %s: rebuild the site with `loupe static`", what)
	}
	modules.Lock()
	if api, ok := modules.api[src]; ok {
		modules.Unlock()
		return api, nil
	}
	wait := modules.loading[src]
	if wait == nil {
		wait = make(chan struct{})
		if modules.loading == nil {
			modules.api, modules.loading, modules.err = map[string]js.Value{}, map[string]chan struct{}{}, map[string]error{}
		}
		modules.loading[src] = wait
		go func() {
			starting.Lock()
			api, err := startSandbox(src)
			starting.Unlock()
			modules.Lock()
			if err == nil {
				modules.api[src] = api
			}
			modules.err[src] = err
			delete(modules.loading, src)
			modules.Unlock()
			close(wait)
		}()
	}
	modules.Unlock()
	select {
	case <-wait:
	case <-ctx.Done():
		return js.Value{}, ctx.Err()
	}
	modules.Lock()
	defer modules.Unlock()
	if err := modules.err[src]; err != nil {
		return js.Value{}, err
	}
	return modules.api[src], nil
}

// startSandbox fetches the module at src, instantiates it with wasm_exec.js's Go runtime (which
// the page already loaded for app.wasm) and waits for it to register loupeSandbox.
func startSandbox(src string) (js.Value, error) {
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
	js.Global().Delete("loupeSandbox")

	fail := func(err error) (js.Value, error) {
		return js.Value{}, fmt.Errorf("the in-browser sandbox could not load from %s: %w", src, err)
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

// keepForOffline has the service worker keep a module the page just fetched, for the next
// visit and for offline use. The worker is not told to fetch the modules at install (megabytes
// a visitor who never sends would download); it keeps what it fetches. On a first visit the
// page fetches a module before the worker controls it, so once it does (controllerchange) the
// module is fetched once more, through the worker, from the browser's HTTP cache.
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
// when slug is "": every module loaded is reset. A module never loaded has nothing to reset.
func ResetSandbox(slug string) error {
	modules.Lock()
	var apis []js.Value
	if slug == "" {
		for _, api := range modules.api {
			apis = append(apis, api)
		}
	} else if api, ok := modules.api[Current().Modules.For(Route{Via: ViaSandbox, Slug: slug})]; ok {
		apis = append(apis, api)
	}
	modules.Unlock()
	for _, api := range apis {
		if msg := api.Call("reset", slug).String(); msg != "" {
			return errors.New(msg)
		}
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
