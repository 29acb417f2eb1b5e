package chatstream

import (
	"strconv"
	"strings"

	"loupe/app/fetch"
	"loupe/app/ui"
)

// chatRequestHeaders are the headers every chat request carries.
var chatRequestHeaders = []fetch.Header{
	{Name: "Content-Type", Value: "application/json"},
	{Name: "Accept", Value: "text/event-stream, application/json"},
}

// chatRaw is an answer's exchange as it went over the wire: the request that was sent and the
// response as received (status, headers, then the body's bytes in order: for a stream, its
// SSE events as text). The request is set before sending, on the UI goroutine; the response
// is written by the reader goroutine under the answer's mutex (see Answer.rawText).
type chatRaw struct {
	method, url string
	body        []byte // the request's JSON body

	head      string // "HTTP 200" and the response headers; "" until they arrive
	received  []byte // the response body as received, at most chatMaxBody bytes
	truncated bool   // more than chatMaxBody bytes arrived
}

// request is the request as text: its line, headers and indented JSON body.
func (r *chatRaw) request() string {
	var b strings.Builder
	b.WriteString(r.method + " " + r.url + "\n")
	for _, h := range chatRequestHeaders {
		b.WriteString(h.Name + ": " + h.Value + "\n")
	}
	b.WriteString("\n")
	body, _ := ui.FormatJSON(string(r.body))
	b.WriteString(body)
	return b.String()
}

// rawHead writes a response's status line and headers as text.
func rawHead(res *fetch.Response) string {
	var b strings.Builder
	b.WriteString("HTTP " + strconv.Itoa(res.Status))
	if res.StatusText != "" {
		b.WriteString(" " + res.StatusText)
	}
	b.WriteString("\n")
	for _, h := range res.Headers {
		b.WriteString(h.Name + ": " + h.Value + "\n")
	}
	return b.String()
}

// chatRawWriter records the response body as the reader reads it (an io.TeeReader's writer).
type chatRawWriter struct{ a *Answer }

// Write appends p to the answer's received bytes, up to chatMaxBody; it never fails, so the
// answer is read to its end whatever the record holds.
func (w chatRawWriter) Write(p []byte) (int, error) {
	w.a.mu.Lock()
	defer w.a.mu.Unlock()
	r := &w.a.raw
	room := chatMaxBody - len(r.received)
	if len(p) > room {
		r.truncated = true
		r.received = append(r.received, p[:max(room, 0)]...)
		return len(p), nil
	}
	r.received = append(r.received, p...)
	return len(p), nil
}

// rawText returns the answer's request and response as text, as far as they have arrived.
func (a *Answer) rawText() (request, response string, truncated bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.raw.url == "" {
		return "", "", false
	}
	if a.raw.head != "" {
		response = a.raw.head + "\n" + string(a.raw.received)
	}
	return a.raw.request(), response, a.raw.truncated
}
