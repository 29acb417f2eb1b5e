// Package inproc is an http.RoundTripper that answers each request with an http.Handler in the
// same process: no connection, no HTTP encoding on the wire, one goroutine per request (the
// handler's, run as the response body's coroutine: see body). The proxy reaches the built-in
// sandboxes through it.
//
// It replaced an in-memory listener (net.Pipe) with a second http.Server on it: every chat
// stream through the proxy then cost an HTTP connection on each side of the pipe, with the
// Transport's two goroutines, the server's read goroutine and four bufio buffers, which was most
// of what a proxied stream held beyond a direct one.
//
// The handler sees what an http.Server would hand it: a server request (RequestURI, a URL of
// path and query only, Host, the headers as sent, Content-Length), a context cancelled when the
// caller goes away or closes the response body, and a ResponseWriter that buffers the first
// 2 KB as net/http does, so a short answer gets a Content-Length, sniffs a missing Content-Type,
// adds Date, discards the body of a HEAD, passes trailers on, and hands each write past the
// headers to the reader. A handler's panic is the caller's error, as a dropped connection
// would be.
//
// After its headers, the handler runs while its body is read: a write returns when the reader
// asks for more, as a write to a connection whose buffers are full waits for the client. A
// reader that stops reading without closing the body holds the handler at its write. A caller
// that copies the body with io.WriterTo (WriteTo) has the handler write straight to its writer
// instead, each write of the handler a write to it (see push.go).
package inproc

import (
	"context"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Transport answers requests with Handler.
type Transport struct {
	// Handler answers every request. Required.
	Handler http.Handler
	// Logger receives a line for a handler's panic. Nil means slog.Default().
	Logger *slog.Logger
}

// RoundTrip implements http.RoundTripper. It returns when the handler has written its
// response's headers (a flush, a first write past 2 KB, or its return), or when the caller's
// context is done first.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	w := &responseWriter{header: http.Header{}, out: req, in: serverRequest(ctx, req)}
	w.body = &body{cancel: cancel, w: w}
	w.body.next, w.body.stop = iter.Pull(func(yield func([]byte) bool) {
		w.yield = yield
		t.serve(w, cancel, req.Body)
	})
	ready := make(chan struct{})
	go w.body.start(ready)
	select {
	case <-ready:
	case <-req.Context().Done():
		// The caller's context, not ctx: the handler cancels ctx when it returns, which may
		// be right after it answered.
		if w.body.abandon() {
			return nil, fmt.Errorf("inproc: %w", context.Cause(req.Context()))
		}
		<-ready
	}
	if w.fail != nil {
		return nil, w.fail
	}
	if req.Context().Err() != nil {
		// The caller left while the answer was made: a handler that stops when its context
		// ends answers just then (an empty 200 from a long wait), and that answer is not the
		// upstream's. The caller gets its own error, as over a connection.
		w.body.Close()
		return nil, fmt.Errorf("inproc: %w", context.Cause(req.Context()))
	}
	return w.resp, nil
}

// serve runs the handler and ends its response. It runs as the body's coroutine (iter.Pull):
// a write hands its bytes to the reader by switching to it, and the handler goes on when the
// reader asks for more.
func (t *Transport) serve(w *responseWriter, cancel context.CancelFunc, reqBody io.ReadCloser) {
	defer cancel()
	defer func() {
		if reqBody != nil {
			reqBody.Close()
		}
	}()
	defer func() {
		v := recover()
		if v == nil {
			streaming := w.committed
			w.finish()
			if streaming && w.out.Context().Err() != nil {
				// The caller left while the body was under way: a handler that stops when its
				// context ends returns as if its answer were whole. Over a connection the
				// caller's read would fail, so the reader's next read past the end does.
				w.body.err = fmt.Errorf("inproc: %w", context.Cause(w.out.Context()))
			}
			return
		}
		err := fmt.Errorf("inproc: the handler of %s %s panicked: %v", w.in.Method, w.in.URL.Path, v)
		if v != http.ErrAbortHandler {
			buf := make([]byte, 16<<10)
			log := t.Logger
			if log == nil {
				log = slog.Default()
			}
			log.Error("handler panicked", "method", w.in.Method, "path", w.in.URL.Path, "panic", fmt.Sprint(v),
				"stack", string(buf[:runtime.Stack(buf, false)]))
		}
		if !w.committed {
			w.fail = err
			return
		}
		w.body.err = err // the reader's next read, once the handler's coroutine ends
	}()
	t.Handler.ServeHTTP(w, w.in)
}

// serverRequest is out as an http.Server would hand it to a handler.
func serverRequest(ctx context.Context, out *http.Request) *http.Request {
	in := out.Clone(ctx)
	in.URL = &url.URL{Path: out.URL.Path, RawPath: out.URL.RawPath, RawQuery: out.URL.RawQuery}
	in.RequestURI = out.URL.RequestURI()
	in.Host = out.Host
	if in.Host == "" {
		in.Host = out.URL.Host
	}
	in.Proto, in.ProtoMajor, in.ProtoMinor = "HTTP/1.1", 1, 1
	in.RemoteAddr = "inproc"
	in.Body = out.Body
	if in.Body == nil {
		in.Body = http.NoBody
	}
	in.GetBody = nil
	if v, ok := in.Header["User-Agent"]; ok && len(v) == 1 && v[0] == "" {
		delete(in.Header, "User-Agent") // an empty one is never sent
	}
	if out.ContentLength > 0 {
		in.Header.Set("Content-Length", strconv.FormatInt(out.ContentLength, 10))
	}
	return in
}

// bufferBeforeCommit is how much of a body is held before the headers go out, as net/http's
// server does (bufferBeforeChunkingSize): a handler that ends within it gets a Content-Length.
const bufferBeforeCommit = 2048

// responseWriter is the handler's ResponseWriter. The handler's goroutine alone uses it.
type responseWriter struct {
	header    http.Header
	out, in   *http.Request
	yield     func([]byte) bool // hands bytes to the reader (iter.Pull); false: it is gone
	body      *body
	status    int
	buf       []byte // the body before the headers went out
	committed bool
	resp      *http.Response // set, or fail, before the handler's first yield or its end
	fail      error
	trailers  []string // the names the handler announced in its Trailer header
	// sink, while body.WriteTo runs, takes the handler's writes instead of the reader.
	sink    io.Writer
	sunk    int64 // bytes written to sink
	sinkErr error // why a write to sink failed: every later write fails with it
}

func (w *responseWriter) Header() http.Header { return w.header }

// WriteHeader sets the status; informational ones (1xx) are not passed on.
func (w *responseWriter) WriteHeader(code int) {
	if w.status != 0 || code < 200 {
		return
	}
	w.status = code
}

func (w *responseWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if !bodyAllowed(w.status) {
		return 0, http.ErrBodyNotAllowed
	}
	if !w.committed {
		if len(w.buf)+len(p) <= bufferBeforeCommit {
			w.buf = append(w.buf, p...)
			return len(p), nil
		}
		if err := w.commit(-1); err != nil {
			return 0, err
		}
	}
	if w.out.Method == http.MethodHead {
		return len(p), nil
	}
	return w.send(p)
}

// send hands p to the reader and waits until it was read: the reader holds p itself, not a
// copy, until it asks for more.
func (w *responseWriter) send(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if w.sink != nil {
		return w.sinkWrite(p)
	}
	if !w.yield(p) {
		return 0, io.ErrClosedPipe
	}
	return len(p), nil
}

// Flush sends the headers and what was written.
func (w *responseWriter) Flush() { _ = w.FlushError() }

// FlushError is Flush for http.ResponseController.
func (w *responseWriter) FlushError() error {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if !w.committed {
		return w.commit(-1)
	}
	return nil
}

// commit hands the response to RoundTrip, with contentLength when the body is complete (-1:
// not known), then writes what was held.
func (w *responseWriter) commit(contentLength int64) error {
	w.committed = true
	if w.status == 0 {
		w.status = http.StatusOK
	}
	h := w.header.Clone()
	if _, ok := h["Content-Type"]; !ok && len(w.buf) > 0 && h.Get("Transfer-Encoding") == "" {
		h.Set("Content-Type", http.DetectContentType(w.buf))
	}
	if _, ok := h["Date"]; !ok {
		h.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	}
	var trailer http.Header
	for _, v := range h["Trailer"] {
		for name := range strings.SplitSeq(v, ",") {
			if name = http.CanonicalHeaderKey(strings.TrimSpace(name)); name != "" {
				w.trailers = append(w.trailers, name)
				if trailer == nil {
					trailer = http.Header{}
				}
				trailer[name] = nil
			}
		}
	}
	delete(h, "Trailer")
	if !bodyAllowed(w.status) {
		contentLength = 0
	} else if v := h.Get("Content-Length"); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			contentLength = n
		}
	} else if contentLength >= 0 {
		h.Set("Content-Length", strconv.FormatInt(contentLength, 10))
	}
	var rb io.ReadCloser = w.body
	if w.out.Method == http.MethodHead || !bodyAllowed(w.status) {
		rb = http.NoBody
	}
	w.resp = &http.Response{
		Status: strconv.Itoa(w.status) + " " + http.StatusText(w.status), StatusCode: w.status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: rb, ContentLength: contentLength, Trailer: trailer, Request: w.out,
	}
	w.body.resp = w.resp
	// The headers: RoundTrip answers, and the reader asks for the body.
	if !w.yield(nil) {
		return io.ErrClosedPipe
	}
	held := w.buf
	w.buf = nil
	if len(held) > 0 && rb != http.NoBody {
		if _, err := w.send(held); err != nil {
			return err
		}
	}
	return nil
}

// finish ends the response when the handler returns: the headers if they did not go out yet
// (with the body's length), the trailers, the end of the body.
func (w *responseWriter) finish() {
	if !w.committed {
		if err := w.commit(int64(len(w.buf))); err != nil {
			return
		}
	}
	// The trailers reach resp.Trailer when the reader sees the body's end (body.Read), as
	// with net/http's Transport: never while the caller may be reading resp.
	for _, name := range w.trailers {
		w.body.addTrailer(name, w.header[name])
	}
	for name, v := range w.header {
		if k, ok := strings.CutPrefix(name, http.TrailerPrefix); ok {
			w.body.addTrailer(http.CanonicalHeaderKey(k), v)
		}
	}
}

// bodyAllowed reports whether a response with this status may have a body.
func bodyAllowed(status int) bool {
	return status != http.StatusNoContent && status != http.StatusNotModified && status >= 200
}
