package app

import (
	"context"
	"io"
	"time"

	"loupe/app/fetch"
	"loupe/app/request"
)

// requestRunner sends a page's requests one at a time through the proxy: Send, Fetch all pages
// and the walkthrough runner all go through it. Starting a request cancels the one in flight,
// and every start has a sequence number, so that an answer arriving late is recognised as stale
// and dropped. The zero value is ready to use; it is not safe for concurrent use (state changes
// happen in ctx.Dispatch, as go-app requires).
type requestRunner struct {
	sending bool
	seq     int
	cancel  context.CancelFunc
}

// start cancels the request in flight and begins a new one. It returns the context the request
// runs under and the sequence number finish expects.
func (r *requestRunner) start() (context.Context, int) {
	r.stop()
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.sending = true
	r.seq++
	return ctx, r.seq
}

// stop cancels the request in flight, if any; its answer still arrives, as cancelled.
func (r *requestRunner) stop() {
	if r.cancel != nil {
		r.cancel()
	}
}

// forget makes every request started so far stale, without cancelling it.
func (r *requestRunner) forget() { r.seq++ }

// finish ends the request numbered seq and reports whether it is still the current one: false
// means a newer request (or forget) replaced it and its answer must be dropped.
func (r *requestRunner) finish(seq int) bool {
	if seq != r.seq {
		return false
	}
	if r.cancel != nil {
		r.cancel()
	}
	r.sending, r.cancel = false, nil
	return true
}

// roundTrip sends req and reads its answer, at most maxBody bytes of it, as the response panel
// shows it. It never fails: a network error, a cut body or a cancellation is in the exchange.
func roundTrip(ctx context.Context, req *request.Request) *exchange {
	ex := &exchange{Method: req.Method, URL: req.URL}
	start := time.Now()
	res, err := fetch.Do(ctx, req.Fetch())
	if err == nil {
		ex.Status, ex.StatusText, ex.Headers = res.Status, res.StatusText, res.Headers
		ex.Body, err = io.ReadAll(io.LimitReader(res.Body, maxBody+1))
		res.Body.Close()
		if len(ex.Body) > maxBody {
			ex.Body, ex.Truncated = ex.Body[:maxBody], true
		}
	}
	ex.Duration = time.Since(start)
	if err != nil {
		ex.Err = err.Error()
		ex.Canceled = ctx.Err() != nil
	}
	return ex
}
