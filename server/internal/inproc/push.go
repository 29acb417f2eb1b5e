package inproc

import (
	"io"
)

// WriteTo implements io.WriterTo: the rest of the body is written to dst by the handler
// itself, each of its writes straight through to dst, until the handler returns. The reader
// then no longer switches to the handler and back for every write (two coroutine switches, a
// copy and a Read of every layer above for each event of a stream): the handler's goroutine
// writes, and the caller waits for its end.
//
// A write to dst that fails fails the handler's write and cancels its context, as the reader
// closing the body would: WriteTo then returns that error once the handler returned. A
// handler's panic is the error otherwise, as with Read; the trailers are passed on at the end.
// A body closed meanwhile (Close from another goroutine) ends the handler as it does a Read's.
func (b *body) WriteTo(dst io.Writer) (int64, error) {
	var n int64
	if len(b.pending) > 0 { // what a Read left
		m, err := dst.Write(b.pending)
		n += int64(m)
		b.pending = b.pending[m:]
		if err != nil {
			return n, err
		}
	}
	b.w.sink = dst
	defer func() { b.w.sink = nil }()
	for {
		chunk, done, err := b.resume() // with sink set, the handler's writes go to dst
		if err != nil {
			return n + b.w.sunk, err
		}
		if done {
			break
		}
		if len(chunk) > 0 && b.w.sinkErr == nil { // not expected: writes go to sink
			m, err := dst.Write(chunk)
			n += int64(m)
			if err != nil {
				b.w.sinkErr = err
				b.cancel()
			}
		}
	}
	n += b.w.sunk
	if b.w.sinkErr != nil {
		return n, b.w.sinkErr
	}
	if err := b.end(); err != io.EOF {
		return n, err
	}
	return n, nil
}

// sinkWrite is a write of the handler while the body is written to a sink (WriteTo).
func (w *responseWriter) sinkWrite(p []byte) (int, error) {
	if w.sinkErr != nil {
		return 0, w.sinkErr
	}
	n, err := w.sink.Write(p)
	w.sunk += int64(n)
	if err != nil {
		w.sinkErr = err
		w.body.cancel() // the reader is gone, as if it had closed the body
	}
	return n, err
}
