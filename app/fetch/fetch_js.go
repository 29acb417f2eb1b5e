//go:build js && wasm

package fetch

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"
)

// Do sends req with the browser's fetch and returns as soon as the response headers arrive.
// Cancelling ctx aborts the request through an AbortController, including a body still being
// read; closing the body cancels its reader.
func Do(ctx context.Context, req Request) (*Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	method := req.Method
	if method == "" {
		method = "GET"
	}
	controller := js.Global().Get("AbortController").New()
	init := js.Global().Get("Object").New()
	init.Set("method", method)
	headers := js.Global().Get("Headers").New()
	for _, h := range req.Headers {
		headers.Call("append", h.Name, h.Value)
	}
	init.Set("headers", headers)
	init.Set("signal", controller.Get("signal"))
	init.Set("credentials", "same-origin")
	if req.Body != nil {
		buf := js.Global().Get("Uint8Array").New(len(req.Body))
		js.CopyBytesToJS(buf, req.Body)
		init.Set("body", buf)
	}

	route := Plan(req.URL, js.Global().Get("location").Get("origin").String())
	var promise js.Value
	carry := false // the proxy may carry a status (carry.go)
	switch route.Via {
	case ViaSandbox:
		sb, err := loadSandbox(ctx, route)
		if err != nil {
			return nil, err
		}
		promise = sb.Call("fetch", route.URL, Current().Base, init)
	case ViaRealAPI:
		api, _ := RealAPIOf(route.Slug)
		if name, value := authHeader(api); name != "" {
			headers.Call("set", name, value)
		}
		init.Set("credentials", "omit")
		// The call carries the user's key: no copy of it in the HTTP cache, and the service
		// worker neither keeps it nor answers it from its cache (server/site's static worker).
		init.Set("cache", "no-store")
		promise = js.Global().Call("fetch", route.URL, init)
	case ViaRefused:
		return nil, errors.New(route.Refused)
	default:
		carry = toProxy(route.URL, Current().Base)
		if carry {
			headers.Call("set", carryStatusHeader, "1")
		}
		promise = js.Global().Call("fetch", route.URL, init)
	}

	stop := context.AfterFunc(ctx, func() { controller.Call("abort") })
	v, err := await(ctx, promise)
	if err != nil {
		stop()
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		if route.Via == ViaRealAPI {
			return nil, blockedError(route.URL)
		}
		return nil, err
	}

	res := &Response{Status: v.Get("status").Int(), StatusText: v.Get("statusText").String()}
	it := v.Get("headers").Call("entries")
	for {
		next := it.Call("next")
		if next.Get("done").Bool() {
			break
		}
		pair := next.Get("value")
		res.Headers = append(res.Headers, Header{Name: pair.Index(0).String(), Value: pair.Index(1).String()})
	}
	if carry {
		res.restoreCarried()
	}
	b := &body{ctx: ctx, stop: stop, controller: controller, turnAt: time.Now()}
	if stream := v.Get("body"); stream.Truthy() {
		b.reader = stream.Call("getReader")
	}
	res.Body = b
	return res, nil
}

// body reads a ReadableStream chunk by chunk.
type body struct {
	ctx        context.Context
	stop       func() bool
	controller js.Value
	reader     js.Value // undefined when the response has no body

	mu     sync.Mutex // held by Read
	buf    []byte
	err    error
	turnAt time.Time // when the browser last had a turn that Read gave it
	closed atomic.Bool
}

// Read implements io.Reader. It gives the browser a turn (see readSlice) when the app has
// computed for readSlice since the last one: chunks already received resolve the reader's
// promises as microtasks of one task, which would otherwise last the whole stream.
func (b *body) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if time.Since(b.turnAt) >= readSlice {
		nextTask()
		b.turnAt = time.Now()
	}
	for len(b.buf) == 0 {
		if b.closed.Load() {
			return 0, errors.New("fetch: read on closed body")
		}
		if b.err != nil {
			return 0, b.err
		}
		if b.reader.IsUndefined() || b.reader.IsNull() {
			b.err = io.EOF
			continue
		}
		chunk, err := await(b.ctx, b.reader.Call("read"))
		if err != nil {
			if ctxErr := b.ctx.Err(); ctxErr != nil {
				err = ctxErr
			}
			b.err = err
			continue
		}
		if chunk.Get("done").Bool() {
			b.err = io.EOF
			b.stop()
			continue
		}
		value := chunk.Get("value")
		n := value.Get("length").Int()
		data := make([]byte, n)
		js.CopyBytesToGo(data, value)
		b.buf = data
	}
	n := copy(p, b.buf)
	b.buf = b.buf[n:]
	return n, nil
}

// Close implements io.Closer: it cancels the reader, which aborts a transfer still running and
// ends a Read waiting for the next chunk.
func (b *body) Close() error {
	if b.closed.Swap(true) {
		return nil
	}
	b.stop()
	if !b.reader.IsUndefined() && !b.reader.IsNull() {
		var ignore js.Func
		ignore = js.FuncOf(func(js.Value, []js.Value) any { ignore.Release(); return nil })
		b.reader.Call("cancel").Call("catch", ignore)
	}
	b.controller.Call("abort")
	return nil
}

// await waits for a JavaScript promise. It returns early when ctx ends (the caller aborts the
// underlying operation).
func await(ctx context.Context, promise js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	var onOK, onErr js.Func
	onOK = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{v: args[0]}
		onOK.Release()
		onErr.Release()
		return nil
	})
	onErr = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "fetch failed"
		if len(args) > 0 {
			if m := args[0].Get("message"); m.Truthy() {
				msg = m.String()
			} else {
				msg = args[0].Call("toString").String()
			}
		}
		ch <- result{err: errors.New(msg)}
		onOK.Release()
		onErr.Release()
		return nil
	})
	promise.Call("then", onOK, onErr)
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		return js.Undefined(), ctx.Err()
	}
}
