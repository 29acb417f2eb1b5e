//go:build js && wasm

package bridge

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"syscall/js"
)

// streamWriter is an http.ResponseWriter (and http.Flusher) whose body is a JavaScript
// ReadableStream: WriteHeader resolves the fetch promise with a Response, and each Write
// enqueues its bytes, so the page reads them as they are written.
type streamWriter struct {
	ctx     context.Context
	cancel  context.CancelFunc
	resolve js.Value
	header  http.Header

	mu         sync.Mutex
	wrote      bool
	noBody     bool     // a status that has no body (204, 304)
	controller js.Value // the stream's controller; undefined when there is no body
	closed     bool
	onCancel   js.Func
}

var errCanceled = errors.New("the page stopped reading the answer")

func newStreamWriter(ctx context.Context, cancel context.CancelFunc, resolve js.Value) *streamWriter {
	return &streamWriter{ctx: ctx, cancel: cancel, resolve: resolve, header: http.Header{}}
}

// Header implements http.ResponseWriter.
func (w *streamWriter) Header() http.Header { return w.header }

// WriteHeader implements http.ResponseWriter: it hands the page its Response.
func (w *streamWriter) WriteHeader(status int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writeHeaderLocked(status)
}

func (w *streamWriter) writeHeaderLocked(status int) {
	if w.wrote {
		return
	}
	w.wrote = true
	if status < 200 || status > 599 {
		status = http.StatusInternalServerError
	}
	headers := js.Global().Get("Headers").New()
	for name, values := range w.header {
		for _, v := range values {
			headers.Call("append", name, v)
		}
	}
	opts := js.Global().Get("Object").New()
	opts.Set("status", status)
	opts.Set("statusText", http.StatusText(status))
	opts.Set("headers", headers)
	body := js.Null()
	switch status {
	case http.StatusNoContent, http.StatusResetContent, http.StatusNotModified:
		w.noBody = true
	default:
		source := js.Global().Get("Object").New()
		start := js.FuncOf(func(_ js.Value, args []js.Value) any {
			w.controller = args[0] // called synchronously by the constructor
			return nil
		})
		w.onCancel = js.FuncOf(func(js.Value, []js.Value) any {
			w.cancel()
			return nil
		})
		source.Set("start", start)
		source.Set("cancel", w.onCancel)
		body = js.Global().Get("ReadableStream").New(source)
		start.Release()
	}
	w.resolve.Invoke(js.Global().Get("Response").New(body, opts))
}

// Write implements http.ResponseWriter.
func (w *streamWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writeHeaderLocked(http.StatusOK)
	if w.noBody {
		return len(p), nil
	}
	if w.closed || w.ctx.Err() != nil {
		return 0, errCanceled
	}
	if len(p) == 0 {
		return 0, nil
	}
	chunk := js.Global().Get("Uint8Array").New(len(p))
	js.CopyBytesToJS(chunk, p)
	w.controller.Call("enqueue", chunk)
	return len(p), nil
}

// Flush implements http.Flusher. Every Write is already delivered.
func (w *streamWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writeHeaderLocked(http.StatusOK)
}

// finish ends the body once the handler returned.
func (w *streamWriter) finish() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writeHeaderLocked(http.StatusOK)
	w.closeLocked(nil)
}

// fail ends the answer with a 500 when nothing was sent yet, else errors the body stream.
func (w *streamWriter) fail(msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.wrote {
		w.header = http.Header{"Content-Type": {"application/json"}}
		w.writeHeaderLocked(http.StatusInternalServerError)
		body := `{"error":` + strconv.Quote(msg) + `}`
		chunk := js.Global().Get("Uint8Array").New(len(body))
		js.CopyBytesToJS(chunk, []byte(body))
		w.controller.Call("enqueue", chunk)
		w.closeLocked(nil)
		return
	}
	w.closeLocked(js.Global().Get("Error").New(msg))
}

func (w *streamWriter) closeLocked(reason any) {
	if w.closed || w.noBody {
		return
	}
	w.closed = true
	switch {
	case reason != nil:
		w.controller.Call("error", reason)
	case w.ctx.Err() != nil:
		// Aborted or cancelled: error() is a no-op on a cancelled stream, close() would throw.
		w.controller.Call("error", js.Global().Get("DOMException").New("the request was stopped", "AbortError"))
	default:
		w.controller.Call("close")
	}
	w.onCancel.Release()
}
