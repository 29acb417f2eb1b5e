package inproc

import (
	"context"
	"io"
	"net/http"
	"sync"
)

// body is the response body. The handler runs as its coroutine (iter.Pull): a Read switches
// to the handler, which runs until its next write hands the bytes back (or it returns), so an
// event of a stream goes from the handler to the reader on one thread, without waking a
// goroutine through the scheduler. io.Pipe, used before, woke the reader for each write and then
// the writer once the reader had taken it: under 2,000 streams on 2 cores each of those waits
// queued behind every other runnable goroutine, and a proxied stream's first token came about
// twice as late as a direct one's.
//
// Closing it ends the request: the handler's context is cancelled and its next write fails.
type body struct {
	next   func() ([]byte, bool) // runs the handler until it writes (true) or returns (false)
	stop   func()                // makes the handler's writes fail and runs it to its end
	cancel context.CancelFunc
	w      *responseWriter
	resp   *http.Response

	pending []byte // the handler's last write, not yet read in full
	err     error  // the body's end: io.EOF, or the handler's panic (set inside the coroutine)
	// trailer is set by the handler's coroutine before it ends.
	trailer http.Header

	mu        sync.Mutex
	answered  bool // the handler wrote its headers or failed before them
	abandoned bool // RoundTrip returned without an answer: start stops the handler
	reading   bool // a Read is running the handler: that Read stops it if Close came meanwhile
	closed    bool
	ended     bool // the handler returned
}

// start runs the handler until it has written its headers (or failed before them), then
// closes ready. It runs on a goroutine of its own, so that RoundTrip can give up waiting when
// its caller's context is done even if the handler does not notice its own.
func (b *body) start(ready chan struct{}) {
	_, ok := b.next()
	b.mu.Lock()
	b.answered = true
	b.ended = !ok
	drain := b.abandoned || (ok && b.w.resp.Body == http.NoBody) // no one will read the body
	b.mu.Unlock()
	close(ready)
	if drain {
		b.stop()
	}
}

// abandon tells start that RoundTrip no longer waits; false if the answer came first.
func (b *body) abandon() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.answered {
		return false
	}
	b.abandoned = true
	return true
}

func (b *body) addTrailer(name string, v []string) {
	if b.trailer == nil {
		b.trailer = http.Header{}
	}
	b.trailer[name] = v
}

func (b *body) Read(p []byte) (int, error) {
	for len(b.pending) == 0 {
		chunk, done, err := b.resume()
		if err != nil {
			return 0, err
		}
		if done {
			return 0, b.end()
		}
		b.pending = chunk
	}
	n := copy(p, b.pending)
	b.pending = b.pending[n:]
	return n, nil
}

// resume runs the handler until its next write, which it returns, or tells that the handler
// has returned (done). It fails once the body is closed; a Close that came while the handler
// ran is this call's to carry out.
func (b *body) resume() (chunk []byte, done bool, err error) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil, false, io.ErrClosedPipe
	}
	if b.ended {
		b.mu.Unlock()
		return nil, true, nil
	}
	b.reading = true
	b.mu.Unlock()
	chunk, ok := b.next()
	b.mu.Lock()
	b.reading = false
	b.ended = !ok
	stop := b.closed && ok
	b.mu.Unlock()
	if stop {
		go b.stop() // Close came while the handler ran: it is this call's to end
	}
	return chunk, false, nil
}

// end is the error of a read past the handler's end, which passes the trailers on.
func (b *body) end() error {
	if b.trailer != nil {
		if b.resp.Trailer == nil {
			b.resp.Trailer = http.Header{}
		}
		for name, v := range b.trailer {
			b.resp.Trailer[name] = v
		}
		b.trailer = nil
	}
	if b.err != nil {
		return b.err
	}
	return io.EOF
}

// Close cancels the handler's context; a handler waiting for its write to be read is resumed
// on a goroutine of its own with that write failed, so that a handler slow to stop does not
// hold up the caller.
func (b *body) Close() error {
	b.cancel()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	if !b.reading && !b.ended {
		go b.stop()
	}
	return nil
}
