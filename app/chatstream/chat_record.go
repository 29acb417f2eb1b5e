package chatstream

import (
	"bytes"
	"sync"
	"time"

	"loupe/app/fetch"
	"loupe/app/op"
	"loupe/app/request"
)

// Record keeps a streamed response as it is read: its status, headers and body (at most
// op.MaxBody bytes). The reader goroutine writes it; the UI goroutine reads it once the answer is over.
type Record struct {
	mu        sync.Mutex
	status    int
	headers   []fetch.Header
	body      bytes.Buffer
	truncated bool
}

// begin records the response's status and headers.
func (r *Record) begin(res *fetch.Response) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.status, r.headers = res.Status, res.Headers
}

// Write keeps the body's bytes, up to op.MaxBody.
func (r *Record) Write(b []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if room := op.MaxBody - r.body.Len(); len(b) > room {
		r.body.Write(b[:room])
		r.truncated = true
		return len(b), nil
	}
	return r.body.Write(b)
}

// Exchange returns what was recorded as the response panel's exchange for req.
func (r *Record) Exchange(req *request.Request, took time.Duration) *op.Exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return &op.Exchange{Method: req.Method, URL: req.URL, Status: r.status, Headers: r.headers,
		Body: bytes.Clone(r.body.Bytes()), Truncated: r.truncated, Duration: took}
}
