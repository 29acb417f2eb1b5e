package proxy

import (
	"io"
	"net/http"
	"sync"
	"time"
)

// The push path of a response body. ReverseProxy copies a body by reading it into its buffer
// and writing that to the client, each layer of the body (idleBody, maskBody, endBody,
// trailerBody) a Read of the one below. An upstream whose body can write itself (io.WriterTo:
// the built-in sandboxes' in-process transport, whose handler then writes each event itself)
// is instead pushed through the same layers, as writers, straight into the client's response:
// on the first Read, trailerBody writes the whole body to the recorder and returns io.EOF, so
// ReverseProxy's loop ends and it goes on as after any body (trailers, errors, the audit).
// Each layer does to the written bytes what its Read does to the read ones, with the same
// masker, idle time-out and recorder; a body that cannot write itself (a real API's, read from
// a connection by http.Transport) is read as before.

// streamWriter writes a pushed body to the client, flushing after each write when
// ReverseProxy would (an event stream, or a body of unknown length: its flushInterval -1).
type streamWriter struct {
	rec   *recorder
	flush bool
	err   error // the client write that failed, if one did
}

func (w *streamWriter) Write(p []byte) (int, error) {
	n, err := w.rec.Write(p)
	if err != nil {
		w.err = err
		return n, err
	}
	if w.flush {
		w.rec.Flush()
	}
	return n, nil
}

// pushes reports whether body, the upstream body as timeoutTransport hands it on, can write
// itself (io.WriterTo) and so take the push path.
func pushes(body io.ReadCloser) bool {
	b, ok := body.(*idleBody)
	if !ok {
		return false
	}
	_, ok = b.body.(io.WriterTo)
	return ok
}

// newStreamWriter returns the writer of a pushed response to the client.
func newStreamWriter(rec *recorder, resp *http.Response) streamWriter {
	return streamWriter{rec: rec, flush: isEventStream(resp.Header) || resp.ContentLength == -1}
}

// WriteTo pushes the body through the recorder's end notice, as Read does at the body's end.
func (b *endBody) WriteTo(w io.Writer) (int64, error) {
	n, err := b.ReadCloser.(io.WriterTo).WriteTo(w)
	if sw, ok := w.(*streamWriter); err != nil && (!ok || err != sw.err) { // the upstream's failure
		b.rec.mu.Lock()
		b.rec.bodyErr = err
		b.rec.mu.Unlock()
	}
	b.rec.bodyEnded(0)
	return n, err
}

// maskScratch is the buffer a pushed write is masked in (the writer's bytes are the
// upstream's, not to be changed): taken for one write, so a stream holds none while it waits.
var maskScratch = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}

// maskWriter masks what is pushed through it, holding back what could begin a secret as
// maskBody.Read does.
type maskWriter struct {
	w io.Writer
	b *maskBody
}

func (mw *maskWriter) Write(p []byte) (int, error) {
	b := mw.b
	if len(b.pending) == 0 && b.m.partial(p) == 0 && !b.m.finds(p) {
		// The usual write (an event of a stream) holds no secret and ends in no secret's
		// beginning: it goes on as it is, without a copy to mask.
		return mw.w.Write(p)
	}
	bp := maskScratch.Get().(*[]byte)
	defer maskScratch.Put(bp)
	room := max(cap(*bp)-len(b.pending), 2*b.m.longest)
	written := 0
	for len(p) > 0 {
		k := min(len(p), room)
		data := append(append((*bp)[:0], b.pending...), p[:k]...)
		*bp = data[:0]
		if out := b.maskHolding(data, false); len(out) > 0 {
			if _, err := mw.w.Write(out); err != nil {
				return written, err
			}
		}
		written += k
		p = p[k:]
	}
	return written, nil
}

// WriteTo pushes the body through the masker; what was held back is written at its end, as
// Read returns it at EOF or with the upstream's error.
func (b *maskBody) WriteTo(w io.Writer) (int64, error) {
	b.mw = maskWriter{w: w, b: b}
	n, err := b.body.(io.WriterTo).WriteTo(&b.mw)
	if sw, ok := w.(*streamWriter); ok && sw.err != nil {
		return n, err
	}
	if len(b.pending) > 0 {
		b.m.mask(b.pending)
		_, werr := w.Write(b.pending)
		b.pending = b.pending[:0]
		if err == nil {
			err = werr
		}
	}
	return n, err
}

// idleWriter notes each pushed write's end: the wait for the next write begins then. While
// the write goes to the client nothing is waited for (a slow client is not a silent upstream),
// as Read waits for nothing while ReverseProxy writes what it read.
type idleWriter struct {
	w io.Writer
	b *idleBody
}

func (iw *idleWriter) Write(p []byte) (int, error) {
	iw.b.reading.Store(0)
	n, err := iw.w.Write(p)
	iw.b.reading.Store(max(int64(time.Since(iw.b.start)), 1))
	return n, err
}

// WriteTo pushes the body while the idle timer watches the silences between its writes, and
// ends it as Read does when the upstream was silent too long.
func (b *idleBody) WriteTo(w io.Writer) (int64, error) {
	b.reading.Store(max(int64(time.Since(b.start)), 1))
	b.iw = idleWriter{w: w, b: b}
	n, err := b.body.(io.WriterTo).WriteTo(&b.iw)
	b.reading.Store(0)
	if !b.idled.Load() {
		return n, err
	}
	if !b.sse {
		return n, errStreamIdle
	}
	b.done = true
	m, werr := w.Write(idleTrailer(b.idle))
	return n + int64(m), werr
}
