package proxy

import (
	"io"
	"net/http"
	"sync"
	"time"
)

// headerHold is how long a flush of the response headers alone waits for the first body
// bytes. httputil.ReverseProxy flushes the headers of a streamed response (an event stream,
// any body without a length) from a timer goroutine as soon as it has them, which races with
// copying the first bytes of the body: when the timer wins, the headers and the first event
// leave in two writes, the client wakes up twice, and the first event waits for both. Holding
// the headers this long sends them with the first event in one write when the upstream sent
// both together (as nginx does); an upstream that is silent after its headers still has them
// passed on within headerHold. A variable for tests.
var headerHold = 2 * time.Millisecond

// recorder is the ResponseWriter handed to httputil.ReverseProxy. It remembers the response's
// status and size for the audit line and holds back a flush of the headers alone (headerHold).
// Unwrap keeps http.ResponseController working through it.
//
// A held flush is done by a timer, so writes and flushes take mu. Holding ends when the
// upstream body ends (endBody, in the handler's goroutine, before ReverseProxy copies trailers
// into the header map) and when ServeHTTP returns (finish).
//
// The status itself is passed on only when the first body byte or a flush goes out (commit):
// until then, an upstream that fails after its headers can still be answered with a JSON error
// (see committed), instead of a connection dropped with no status at all.
type recorder struct {
	http.ResponseWriter
	status    int
	bytes     int64
	pending   int   // a status written but not yet passed on
	committed bool  // the status was passed on to the ResponseWriter
	bodyErr   error // why the upstream body failed, if it did
	carry     bool  // a 408 goes out as carriedAs (see carry.go); status keeps 408

	mu     sync.Mutex
	held   bool        // a flush was asked for before any body byte and is not done yet
	noHold bool        // the body ended: flush at once from now on
	closed bool        // ServeHTTP returned: the ResponseWriter must not be used any more
	timer  *time.Timer // does a held flush after headerHold
}

// WriteHeader records and writes the final status. An upstream's informational reply (1xx
// but 101), which ReverseProxy passes on, is dropped: its headers are the upstream's, unfiltered
// and unmasked, and a browser must only ever see the final answer.
func (r *recorder) WriteHeader(code int) {
	if code >= 100 && code < 200 && code != http.StatusSwitchingProtocols {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.status == 0 {
		r.status = code
	}
	if code == 499 || r.committed || r.pending != 0 {
		return // the client is gone, or a status is already written: nothing to write
	}
	r.pending = code
}

// commitLocked passes the written status on, once.
func (r *recorder) commitLocked() {
	if r.pending != 0 && !r.committed {
		r.committed = true
		r.ResponseWriter.WriteHeader(r.wireStatus(r.pending))
	}
}

// isCommitted reports whether anything reached the ResponseWriter: its status or a body byte.
func (r *recorder) isCommitted() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.committed || r.bytes > 0
}

// restart forgets a status that was never passed on, so another answer can replace it; the
// header map is emptied of the upstream's headers.
func (r *recorder) restart() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.status, r.pending, r.held, r.noHold, r.closed = 0, 0, false, false, false
	if r.timer != nil {
		r.timer.Stop()
	}
	clear(r.ResponseWriter.Header())
}

// Write writes a body byte; the first one also does a held flush, so the headers leave with it.
func (r *recorder) Write(b []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.status == 0 {
		r.status = http.StatusOK
	}
	r.commitLocked()
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	if r.held {
		r.flushLocked()
	}
	return n, err
}

// Flush sends what was written so far, except that a flush of the headers alone is held for
// up to headerHold while the upstream body goes on.
func (r *recorder) Flush() {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.closed:
	case r.bytes == 0 && r.bodyErr != nil:
		// The upstream body failed before its first byte: the handler answers that failure
		// (answerLateFailure), which a status passed on now would make impossible.
	case r.bytes == 0 && !r.noHold:
		if !r.held {
			r.held = true
			if r.timer == nil {
				r.timer = time.AfterFunc(headerHold, r.flushHeld)
			} else {
				r.timer.Reset(headerHold)
			}
		}
	default:
		r.flushLocked()
	}
}

// FlushError is Flush for http.ResponseController.
func (r *recorder) FlushError() error {
	r.Flush()
	return nil
}

func (r *recorder) flushLocked() {
	r.commitLocked()
	if r.held {
		r.timer.Stop() // armed only while a flush is held; an event stream flushes every event
	}
	r.held = false
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// flushHeld does a held flush once headerHold has passed without a body byte.
func (r *recorder) flushHeld() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.held && !r.noHold && !r.closed {
		r.flushLocked()
	}
}

// bodyEnded stops holding: the upstream body ended with pending bytes still to be written
// (which then do a held flush) or with none (a held flush is done now, unless the body failed:
// then nothing is passed on, so the failure can still be answered).
func (r *recorder) bodyEnded(pending int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.noHold = true
	if r.timer != nil {
		r.timer.Stop()
	}
	if r.held && pending == 0 && !r.closed && r.bodyErr == nil {
		r.flushLocked()
	}
}

// flushOnAbort sends what was written before the handler aborts the connection.
func (r *recorder) flushOnAbort() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.committed && !r.closed {
		r.flushLocked()
	}
}

// finish stops holding when ServeHTTP returns: a held flush is done, unless the handler
// panicked (aborted), and the ResponseWriter is not used again.
func (r *recorder) finish(aborted bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.held && !aborted && !r.closed {
		r.flushLocked()
	}
	if !aborted && !r.closed {
		r.commitLocked()
	}
	r.noHold, r.closed = true, true
	if r.timer != nil {
		r.timer.Stop()
	}
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// endBody is an upstream body that tells the recorder when it ends (EOF or an error).
type endBody struct {
	io.ReadCloser
	rec *recorder
}

func (b *endBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		if err != io.EOF {
			b.rec.mu.Lock()
			b.rec.bodyErr = err
			b.rec.mu.Unlock()
		}
		b.rec.bodyEnded(n)
	}
	return n, err
}
