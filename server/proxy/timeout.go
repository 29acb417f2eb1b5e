package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// timeoutTransport bounds the wait for an upstream's response headers and, for event streams,
// the silence between two reads of the body. The upstream request lives until its body is
// closed or the client goes away, whichever comes first.
type timeoutTransport struct {
	next          http.RoundTripper
	headerTimeout time.Duration
	idleTimeout   time.Duration
}

func (t *timeoutTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	// A proxied call brings a context of its own to cancel (call.cancel): the upstream request
	// then needs no second context, nor a second copy of itself to carry one.
	ctx := req.Context()
	var cancel context.CancelCauseFunc
	var b *idleBody
	if c := callFrom(ctx); c != nil && c.cancel != nil {
		cancel, b = c.cancel, &c.idle
	} else {
		ctx, cancel = context.WithCancelCause(ctx)
		req = req.WithContext(ctx)
		b = new(idleBody)
	}
	// One timer serves both waits: for the headers, then between two reads of the body.
	b.idle, b.cancel, b.start, b.call = t.idleTimeout, cancel, time.Now(), callFrom(ctx)
	b.timer = startIdleTimer(b, t.headerTimeout)
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		b.stopTimer()
	} else if b.phase.CompareAndSwap(phaseHeaders, phaseBody) { // unless the header time-out fired
		// The timer, armed for the end of the header wait, watches the body from now on: when
		// it fires, expire arms it again for what is left of the idle wait of the read under way.
		// It is reset only when the idle wait would end first, so that most calls do without
		// the two timer operations (stop, reset) of the change of phase.
		if t.headerTimeout-time.Since(b.start) > t.idleTimeout {
			b.timer.t.Reset(t.idleTimeout)
		}
	}
	if err != nil {
		if errors.Is(context.Cause(ctx), errHeaderTimeout) {
			err = fmt.Errorf("%w: %w", errHeaderTimeout, err)
		}
		cancel(nil)
		return nil, err
	}
	b.body, b.sse = resp.Body, isEventStream(resp.Header)
	resp.Body = b
	return resp, nil
}

// isEventStream reports whether h's media type is text/event-stream (as mime.ParseMediaType
// reads it, without its allocations).
func isEventStream(h http.Header) bool {
	mt, _, _ := strings.Cut(first(h, "Content-Type"), ";")
	return strings.EqualFold(strings.TrimSpace(mt), "text/event-stream")
}

// idleBody is an upstream body that ends when the upstream is silent for too long: it cancels
// the upstream request, and ends an event stream cleanly with an SSE error event that says
// why (any other body fails, which cuts the connection: its end would be taken for complete).
// An event stream whose upstream connection breaks ends the same way (brokenTrailer), so that
// the client learns that the API's stream broke, not its own connection. Closing it releases
// the upstream request.
//
// Silence is a read that has waited for idle. A read only notes when it began (reading): the
// timer, armed once for the body, looks when it fires and arms itself again for what is left.
// Resetting and stopping the timer around every read cost two runtime timer operations per event
// of a stream, a tenth of what the proxy added to each.
type idleBody struct {
	body    io.ReadCloser
	idle    time.Duration
	cancel  context.CancelCauseFunc
	timer   *idleTimer   // the header time-out, then the idle one
	start   time.Time    // the origin of reading's times (monotonic)
	reading atomic.Int64 // when the read under way began, in ns since start; 0: none
	phase   atomic.Int32
	idled   atomic.Bool
	sse     bool
	call    *call  // the proxied call, for its API and audit line; nil outside one
	passed  bool   // some of the body was read: a break is then mid-stream
	trailer []byte // the closing event, once idle or broken
	done    bool
	iw      idleWriter // the writer of WriteTo, the push path's, in the body's allocation
}

// The phases of an idleBody's timer.
const (
	phaseHeaders  = iota // waiting for the response headers
	phaseBody            // reading the body
	phaseTimedOut        // the headers did not come in time
	phaseClosed          // the body was closed
)

// expire ends the upstream request when the timer fires: no headers in time, or a silent body.
func (b *idleBody) expire() {
	if b.phase.CompareAndSwap(phaseHeaders, phaseTimedOut) {
		b.cancel(errHeaderTimeout)
		return
	}
	if b.phase.Load() != phaseBody {
		return
	}
	next := b.idle
	if began := b.reading.Load(); began != 0 {
		waited := time.Since(b.start) - time.Duration(began)
		if waited >= b.idle {
			b.idled.Store(true)
			b.cancel(errStreamIdle)
			return
		}
		next = b.idle - waited
	}
	b.timer.t.Reset(next)
}

func (b *idleBody) Read(p []byte) (int, error) {
	if b.done {
		if len(b.trailer) == 0 {
			return 0, io.EOF
		}
		n := copy(p, b.trailer)
		b.trailer = b.trailer[n:]
		return n, nil
	}
	b.reading.Store(max(int64(time.Since(b.start)), 1))
	n, err := b.body.Read(p)
	b.reading.Store(0)
	if err != nil && b.idled.Load() {
		if !b.sse {
			return n, errStreamIdle
		}
		return b.end(p, n, idleTrailer(b.idle))
	}
	if err != nil && err != io.EOF && b.sse && (b.passed || n > 0) && b.call != nil && b.call.client.Err() == nil {
		cause, check := brokenCause(err)
		b.call.reason = "upstream " + cause + " mid-stream"
		return b.end(p, n, brokenTrailer(b.call.up.slug, cause, check))
	}
	b.passed = b.passed || n > 0
	return n, err
}

// end closes an event stream with trailer after the n bytes read into p: they are returned
// first, then the trailer, then io.EOF.
func (b *idleBody) end(p []byte, n int, trailer []byte) (int, error) {
	b.done, b.trailer = true, trailer
	if n > 0 {
		return n, nil
	}
	m := copy(p, b.trailer)
	b.trailer = b.trailer[m:]
	return m, nil
}

func (b *idleBody) Close() error {
	if b.phase.Swap(phaseClosed) != phaseClosed { // a firing timer arms itself no more
		b.stopTimer() // once: a timer handed back may be another call's already
	}
	err := b.body.Close()
	b.cancel(nil)
	return err
}

// stopTimer stops the body's timer for good. A timer whose function has not started (Stop
// reports it) is handed back for another call (startIdleTimer); one that fired may still be
// running its function, and is left to it.
func (b *idleBody) stopTimer() {
	if b.timer.t.Stop() {
		b.timer.b.Store(nil)
		idleTimers.Put(b.timer)
	}
}

// idleTimer is an idleBody's timer, reused by later calls: a time.AfterFunc and its function
// value, made for every call, were two allocations per call, and making and stopping one took
// several times as long as resetting and stopping a kept one. It runs the expire of the body it
// serves, b, set before the timer is armed for it.
type idleTimer struct {
	t *time.Timer
	b atomic.Pointer[idleBody]
}

// idleTimers holds the idleTimers whose timer is stopped and whose function is not running.
var idleTimers sync.Pool

func (it *idleTimer) fire() {
	if b := it.b.Load(); b != nil {
		b.expire()
	}
}

// startIdleTimer arms a timer that runs b.expire after d: a stopped one handed back by an
// earlier call, or a new one.
func startIdleTimer(b *idleBody, d time.Duration) *idleTimer {
	if it, ok := idleTimers.Get().(*idleTimer); ok {
		it.b.Store(b)
		it.t.Reset(d)
		return it
	}
	it := new(idleTimer)
	it.b.Store(b)
	it.t = time.AfterFunc(d, it.fire)
	return it
}

// idleTrailer is the event that closes a stream whose upstream was silent for idle.
func idleTrailer(idle time.Duration) []byte {
	return fmt.Appendf(nil, ": loupe: the upstream sent nothing for %s; stream closed\n\n"+
		"event: error\ndata: {\"error\":\"the upstream sent nothing for %s; Loupe closed the stream\",\"check\":\"server.limits.stream_idle_timeout\",\"source\":\"loupe proxy\"}\n\n",
		idle, idle)
}
