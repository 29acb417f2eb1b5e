package op

import (
	"context"
	"io"
	"time"

	"loupe/app/fetch"
	"loupe/app/request"
)

// RequestRunner sends a page's requests one at a time through the proxy: Send, Fetch all pages
// and the walkthrough runner all go through it. Starting a request cancels the one in flight,
// and every start has a sequence number, so that an answer arriving late is recognised as stale
// and dropped. The zero value is ready to use; it is not safe for concurrent use (state changes
// happen in ctx.Dispatch, as go-app requires).
type RequestRunner struct {
	Sending bool // a request is in flight
	Seq     int  // the sequence number of the last start
	cancel  context.CancelFunc
}

// Start cancels the request in flight and begins a new one. It returns the context the request
// runs under and the sequence number finish expects.
func (r *RequestRunner) Start() (context.Context, int) {
	r.Stop()
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.Sending = true
	r.Seq++
	return ctx, r.Seq
}

// Stop cancels the request in flight, if any; its answer still arrives, as cancelled.
func (r *RequestRunner) Stop() {
	if r.cancel != nil {
		r.cancel()
	}
}

// Forget makes every request started so far stale, without cancelling it.
func (r *RequestRunner) Forget() { r.Seq++ }

// Finish ends the request numbered seq and reports whether it is still the current one: false
// means a newer request (or forget) replaced it and its answer must be dropped.
func (r *RequestRunner) Finish(seq int) bool {
	if seq != r.Seq {
		return false
	}
	if r.cancel != nil {
		r.cancel()
	}
	r.Sending, r.cancel = false, nil
	return true
}

// RoundTrip sends req and reads its answer, at most MaxBody bytes of it, as the response panel
// shows it. It never fails: a network error, a cut body or a cancellation is in the exchange.
func RoundTrip(ctx context.Context, req *request.Request) *Exchange {
	ex := &Exchange{Method: req.Method, URL: req.URL}
	start := time.Now()
	res, err := fetch.Do(ctx, req.Fetch())
	if err == nil {
		ex.Status, ex.StatusText, ex.Headers = res.Status, res.StatusText, res.Headers
		ex.Body, err = io.ReadAll(io.LimitReader(res.Body, MaxBody+1))
		res.Body.Close()
		if len(ex.Body) > MaxBody {
			ex.Body, ex.Truncated = ex.Body[:MaxBody], true
		}
	}
	ex.Duration = time.Since(start)
	if err != nil {
		ex.Err = err.Error()
		ex.Canceled = ctx.Err() != nil
	}
	return ex
}
