//go:build js && wasm

package bridge

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"syscall/js"
)

// serve answers one request: it returns a Promise that resolves to a Response as soon as the
// handler writes its header, and feeds the Response's body as the handler writes.
func serve(h http.Handler, path, base string, init js.Value) js.Value {
	var resolve, reject js.Value
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject = args[0], args[1]
		return nil
	})
	promise := js.Global().Get("Promise").New(executor)
	executor.Release()

	r, cancel, err := newRequest(path, base, init)
	if err != nil {
		reject.Invoke(js.Global().Get("TypeError").New(err.Error()))
		return promise
	}
	w := newStreamWriter(r.Context(), cancel, resolve)
	go func() {
		defer cancel()
		defer func() {
			if p := recover(); p != nil {
				w.fail(fmt.Sprintf("the built-in sandbox failed: %v", p))
			}
		}()
		h.ServeHTTP(w, r)
		w.finish()
	}()
	return promise
}

// newRequest builds the server-side request for path from a fetch init. The request's context
// ends when init.signal aborts.
func newRequest(path, base string, init js.Value) (*http.Request, context.CancelFunc, error) {
	method := "GET"
	var body []byte
	header := http.Header{}
	if init.Truthy() {
		if m := init.Get("method"); m.Truthy() {
			method = strings.ToUpper(m.String())
		}
		if hs := init.Get("headers"); hs.Truthy() {
			it := js.Global().Get("Headers").New(hs).Call("entries")
			for next := it.Call("next"); !next.Get("done").Bool(); next = it.Call("next") {
				pair := next.Get("value")
				header.Add(pair.Index(0).String(), pair.Index(1).String())
			}
		}
		if b := init.Get("body"); b.Truthy() {
			if b.Type() == js.TypeString {
				body = []byte(b.String())
			} else {
				u8 := js.Global().Get("Uint8Array").New(b)
				body = make([]byte, u8.Get("length").Int())
				js.CopyBytesToGo(body, u8)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	if init.Truthy() {
		if signal := init.Get("signal"); signal.Truthy() {
			if signal.Get("aborted").Bool() {
				cancel()
			} else {
				var onAbort js.Func
				onAbort = js.FuncOf(func(js.Value, []js.Value) any {
					cancel()
					onAbort.Release()
					return nil
				})
				opts := js.Global().Get("Object").New()
				opts.Set("once", true)
				signal.Call("addEventListener", "abort", onAbort, opts)
			}
		}
	}
	loc := js.Global().Get("location")
	host, proto := loc.Get("host").String(), strings.TrimSuffix(loc.Get("protocol").String(), ":")
	r, err := http.NewRequestWithContext(ctx, method, proto+"://"+host+path, bytes.NewReader(body))
	if err != nil {
		cancel()
		return nil, nil, fmt.Errorf("the sandbox cannot read the address %q: %w", path, err)
	}
	r.Header = header
	r.Host = host
	// The sandboxes that write absolute links (the DRF ones) read where they are mounted from
	// the request URI, as behind the server's proxy: the site's base, then /proxy/<slug>.
	r.RequestURI = strings.TrimRight(base, "/") + path
	r.RemoteAddr = "127.0.0.1:0"
	return r, cancel, nil
}
