package proxy

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A flush of the headers alone waits for the first body bytes, so both leave in one write (as
// nginx sends them) rather than two, which cost the client a second wake-up before its first
// event; it is done anyway when the body ends, when the handler returns, or after headerHold.
func TestRecorderHoldsHeaderFlush(t *testing.T) {
	defer func(d time.Duration) { headerHold = d }(headerHold)
	headerHold = time.Hour
	flushed := func(r *recorder) bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.ResponseWriter.(*httptest.ResponseRecorder).Flushed
	}
	newRec := func() *recorder {
		r := &recorder{ResponseWriter: httptest.NewRecorder()}
		r.WriteHeader(http.StatusOK)
		r.Flush()
		if flushed(r) {
			t.Fatal("the headers alone were flushed at once")
		}
		return r
	}

	r := newRec()
	io.WriteString(r, "data: 1\n\n")
	if !flushed(r) || r.ResponseWriter.(*httptest.ResponseRecorder).Body.String() != "data: 1\n\n" {
		t.Error("the first body bytes did not flush the held headers")
	}
	r.finish(false)

	r = newRec()
	r.bodyEnded(0)
	if !flushed(r) {
		t.Error("an empty body's end did not flush the held headers")
	}
	r.Flush() // ReverseProxy forces chunking before trailers: not held any more
	r.finish(false)

	r = newRec()
	r.bodyEnded(5)
	if flushed(r) {
		t.Error("the body ended with bytes still to be written, and the headers were flushed without them")
	}
	io.WriteString(r, "last.")
	if !flushed(r) {
		t.Error("the last bytes did not flush the held headers")
	}
	r.finish(false)

	r = newRec()
	r.finish(false)
	if !flushed(r) {
		t.Error("returning from the handler did not flush the held headers")
	}
	r = newRec()
	r.finish(true)
	if flushed(r) {
		t.Error("an aborted handler flushed")
	}

	headerHold = time.Millisecond
	r = newRec()
	for deadline := time.Now().Add(10 * time.Second); !flushed(r); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the held headers were never flushed")
		}
	}
	r.finish(false)
}

// An upstream that sends its headers and then nothing for a while: the client has the headers
// (and can show that the stream is open) without waiting for the first event.
func TestHeadersOfASilentStream(t *testing.T) {
	h := newHarness(t, nil)
	gotHeaders := make(chan struct{})
	h.backend.setHandler(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_ = http.NewResponseController(w).Flush()
		select {
		case <-gotHeaders:
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, "data: late\n\n")
	})
	done := make(chan string, 1)
	go func() {
		resp, err := h.Client().Get(h.URL + "/proxy/chat/v1/stream")
		if err != nil {
			done <- err.Error()
			return
		}
		defer resp.Body.Close()
		close(gotHeaders)
		line, _ := bufio.NewReader(resp.Body).ReadString('\n')
		done <- fmt.Sprintf("%d %s", resp.StatusCode, line)
	}()
	select {
	case got := <-done:
		if got != "200 data: late\n" {
			t.Errorf("got %q", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the client never got the headers of a stream whose upstream sends its first event only after that")
	}
}

// Trailers still pass, whether the body is empty, short or streamed (go test -race: the held
// flush of the headers must not race with ReverseProxy setting the trailers).
func TestTrailersThroughHeldFlush(t *testing.T) {
	h := newHarness(t, nil)
	for _, body := range []string{"", "short", strings.Repeat("x", 100<<10)} {
		h.backend.setHandler(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Trailer", "X-Checksum")
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, body)
			w.Header().Set("X-Checksum", fmt.Sprint(len(body)))
		})
		resp, got := h.do(t, "GET", "/proxy/chat/v1/stream", nil, nil)
		if got != body || resp.Trailer.Get("X-Checksum") != fmt.Sprint(len(body)) {
			t.Errorf("body of %d bytes: got %d bytes, trailer %q", len(body), len(got), resp.Trailer)
		}
	}
}
