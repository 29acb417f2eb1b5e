package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
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
	ctx, cancel := context.WithCancelCause(req.Context())
	timer := time.AfterFunc(t.headerTimeout, func() { cancel(errHeaderTimeout) })
	resp, err := t.next.RoundTrip(req.WithContext(ctx))
	timer.Stop()
	if err != nil {
		if errors.Is(context.Cause(ctx), errHeaderTimeout) {
			err = fmt.Errorf("%w: %w", errHeaderTimeout, err)
		}
		cancel(nil)
		return nil, err
	}
	resp.Body = newIdleBody(resp.Body, t.idleTimeout, cancel, isEventStream(resp.Header))
	return resp, nil
}

// isEventStream reports whether h's media type is text/event-stream (as mime.ParseMediaType
// reads it, without its allocations).
func isEventStream(h http.Header) bool {
	mt, _, _ := strings.Cut(h.Get("Content-Type"), ";")
	return strings.EqualFold(strings.TrimSpace(mt), "text/event-stream")
}

// idleBody is an upstream body that ends when the upstream is silent for too long: it cancels
// the upstream request, and ends an event stream cleanly with an SSE error event that says
// why (any other body fails, which cuts the connection: its end would be taken for complete).
// Closing it releases the upstream request.
type idleBody struct {
	body    io.ReadCloser
	idle    time.Duration
	cancel  context.CancelCauseFunc
	timer   *time.Timer
	idled   atomic.Bool
	sse     bool
	trailer []byte // the closing event, once idle
	done    bool
}

func newIdleBody(body io.ReadCloser, idle time.Duration, cancel context.CancelCauseFunc, sse bool) *idleBody {
	b := &idleBody{body: body, idle: idle, cancel: cancel, sse: sse}
	b.timer = time.AfterFunc(idle, b.expire)
	b.timer.Stop()
	return b
}

func (b *idleBody) expire() {
	b.idled.Store(true)
	b.cancel(errStreamIdle)
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
	b.timer.Reset(b.idle)
	n, err := b.body.Read(p)
	b.timer.Stop()
	if err != nil && b.idled.Load() {
		if !b.sse {
			return n, errStreamIdle
		}
		b.done = true
		b.trailer = fmt.Appendf(nil, ": loupe: the upstream sent nothing for %s; stream closed\n\n"+
			"event: error\ndata: {\"error\":\"the upstream sent nothing for %s; Loupe closed the stream\",\"check\":\"server.limits.stream_idle_timeout\",\"source\":\"loupe proxy\"}\n\n",
			b.idle, b.idle)
		if n > 0 {
			return n, nil
		}
		m := copy(p, b.trailer)
		b.trailer = b.trailer[m:]
		return m, nil
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.timer.Stop()
	err := b.body.Close()
	b.cancel(nil)
	return err
}
