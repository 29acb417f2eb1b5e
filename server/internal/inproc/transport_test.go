package inproc

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func roundTrip(t *testing.T, h http.HandlerFunc, method, target string, body io.Reader) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	tr := &Transport{Handler: h, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatalf("RoundTrip: %v", err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the body: %v", err)
	}
	return resp, string(got)
}

func TestResponses(t *testing.T) {
	long := strings.Repeat("x", 5000)
	tests := []struct {
		name, method string
		h            http.HandlerFunc
		status       int
		body         string
		length       int64
		ctype        string
	}{
		{"short JSON gets a length", "GET", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(201)
			io.WriteString(w, `{"ok":true}`)
		}, 201, `{"ok":true}`, 11, "application/json"},
		{"a missing type is sniffed", "GET", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "<html><body>hi</body></html>")
		}, 200, "<html><body>hi</body></html>", 28, "text/html; charset=utf-8"},
		{"a long body streams without a length", "GET", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, long)
		}, 200, long, -1, "text/plain"},
		{"a HEAD has no body", "HEAD", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "hello")
		}, 200, "", 5, "text/plain"},
		{"204 has no body", "DELETE", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(204)
			if _, err := io.WriteString(w, "x"); !errors.Is(err, http.ErrBodyNotAllowed) {
				panic("a body on a 204 was accepted")
			}
		}, 204, "", 0, ""},
		{"nothing written is an empty 200", "GET", func(w http.ResponseWriter, r *http.Request) {}, 200, "", 0, ""},
		{"the server request", "GET", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, r.RequestURI+" "+r.Host+" "+r.URL.String()+" ua="+r.Header.Get("User-Agent"))
		}, 200, "/a/b%2Fc?q=1 sandbox.internal /a/b%2Fc?q=1 ua=", 46, "text/plain; charset=utf-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := roundTrip(t, tt.h, tt.method, "http://sandbox.internal/a/b%2Fc?q=1", nil)
			if resp.StatusCode != tt.status || body != tt.body || resp.ContentLength != tt.length {
				t.Errorf("got %d %q length %d; want %d %q length %d", resp.StatusCode, body, resp.ContentLength, tt.status, tt.body, tt.length)
			}
			if got := resp.Header.Get("Content-Type"); got != tt.ctype {
				t.Errorf("Content-Type: got %q; want %q", got, tt.ctype)
			}
			if resp.Header.Get("Date") == "" {
				t.Error("no Date header")
			}
		})
	}
}

func TestRequestBody(t *testing.T) {
	_, got := roundTrip(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		io.WriteString(w, r.Method+" "+r.Header.Get("Content-Length")+" "+string(b))
	}, "POST", "http://x/", strings.NewReader(`{"a":1}`))
	if want := `POST 7 {"a":1}`; got != want {
		t.Errorf("got %q; want %q", got, want)
	}
}

// TestFlushedEventsArriveWhileTheHandlerRuns: each flushed event reaches the reader while the
// handler still runs, before the handler writes the next (it goes on when the reader asks for
// more, as it would wait on a full connection), and closing the body stops the handler: its
// context is cancelled and its write refused.
func TestFlushedEventsArriveWhileTheHandlerRuns(t *testing.T) {
	var written atomic.Int32 // the events the handler began to write
	stopped := make(chan error, 1)
	h := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		for i := 0; ; i++ {
			written.Store(int32(i + 1))
			io.WriteString(w, "data: "+strings.Repeat("e", i)+"\n\n")
			if err := rc.Flush(); err != nil {
				stopped <- err
				return
			}
			if err := r.Context().Err(); err != nil {
				stopped <- err
				return
			}
		}
	}
	req, _ := http.NewRequest("GET", "http://x/", nil)
	resp, err := (&Transport{Handler: http.HandlerFunc(h)}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		buf := make([]byte, 64)
		n, err := resp.Body.Read(buf)
		if want := "data: " + strings.Repeat("e", i) + "\n\n"; string(buf[:n]) != want || err != nil {
			t.Fatalf("event %d: got %q %v; want %q", i, buf[:n], err, want)
		}
		if got, want := written.Load(), int32(i+1); got != want {
			t.Fatalf("after event %d the handler began %d events; want %d (each one read before the next is written)", i, got, want)
		}
	}
	resp.Body.Close()
	select {
	case err := <-stopped:
		if !errors.Is(err, context.Canceled) && !errors.Is(err, io.ErrClosedPipe) {
			t.Errorf("the handler stopped with %v; want its context cancelled or its write refused", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the handler still runs 5 s after the body was closed")
	}
}

// TestCloseWhileReading: a Close from another goroutine while a Read waits for the handler
// ends both: the Read gets what the handler wrote last or an error, and the handler stops.
func TestCloseWhileReading(t *testing.T) {
	stopped := make(chan struct{})
	h := func(w http.ResponseWriter, r *http.Request) {
		defer close(stopped)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		io.WriteString(w, "late")
	}
	req, _ := http.NewRequest("GET", "http://x/", nil)
	resp, err := (&Transport{Handler: http.HandlerFunc(h)}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(20*time.Millisecond, func() { resp.Body.Close() })
	got, err := io.ReadAll(resp.Body)
	if err == nil && string(got) != "late" {
		t.Errorf("got %q, %v; want \"late\" or an error", got, err)
	}
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler still runs 5 s after the body was closed")
	}
}

// TestHeadRunsTheHandlerToItsEnd: a response without a body is not read, yet its handler ends.
func TestHeadRunsTheHandlerToItsEnd(t *testing.T) {
	ended := make(chan struct{})
	h := func(w http.ResponseWriter, r *http.Request) {
		defer close(ended)
		w.(http.Flusher).Flush()
		io.WriteString(w, "not sent")
	}
	req, _ := http.NewRequest("HEAD", "http://x/", nil)
	resp, err := (&Transport{Handler: http.HandlerFunc(h)}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Body != http.NoBody {
		t.Errorf("got body %T; want http.NoBody", resp.Body)
	}
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler of a HEAD request did not end")
	}
}

func TestPanicIsAnError(t *testing.T) {
	req, _ := http.NewRequest("GET", "http://x/boom", nil)
	tr := &Transport{Handler: http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if resp, err := tr.RoundTrip(req); err == nil || !strings.Contains(err.Error(), "panicked: boom") {
		t.Fatalf("got %v, %v; want the panic as an error", resp, err)
	}
	// After the headers went out, the panic cuts the body.
	tr.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "part")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	})
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	if string(got) != "part" || err == nil {
		t.Errorf("got %q, %v; want the part written and an error", got, err)
	}
}

func TestCancelledBeforeHeaders(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://x/", nil)
	release := make(chan struct{})
	defer close(release)
	tr := &Transport{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release })}
	time.AfterFunc(20*time.Millisecond, cancel)
	if _, err := tr.RoundTrip(req); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v; want context.Canceled", err)
	}
}

// TestCallerLeavesAWaitingHandler: a handler that waits until its context ends and then returns
// without writing (a long wait whose caller went away) must not pass for an empty 200; over a
// connection the caller would have had its own error. 50 rounds: the handler's return and the
// caller's cancellation race.
func TestCallerLeavesAWaitingHandler(t *testing.T) {
	tr := &Transport{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })}
	for range 50 {
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, "GET", "http://x/", nil)
		time.AfterFunc(time.Millisecond, cancel)
		resp, err := tr.RoundTrip(req)
		if err == nil {
			resp.Body.Close()
			t.Fatalf("got %d; want context.Canceled", resp.StatusCode)
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v; want context.Canceled", err)
		}
	}
}

func TestTrailers(t *testing.T) {
	resp, body := roundTrip(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Trailer", "X-Sum")
		io.WriteString(w, "body")
		w.Header().Set("X-Sum", "42")
		w.Header().Set(http.TrailerPrefix+"X-Late", "yes")
	}, "GET", "http://x/", nil)
	if body != "body" || resp.Trailer.Get("X-Sum") != "42" || resp.Trailer.Get("X-Late") != "yes" {
		t.Errorf("got %q, trailers %v; want body and X-Sum: 42, X-Late: yes", body, resp.Trailer)
	}
}

// TestCallerLeavesAStreamingHandler: a handler that streams until its context ends, then
// returns, must not pass for a whole answer; the body's read past its end fails with the
// caller's error, as it would over a connection, on Read and on WriteTo alike.
func TestCallerLeavesAStreamingHandler(t *testing.T) {
	for _, copyWith := range []string{"Read", "WriteTo"} {
		t.Run(copyWith, func(t *testing.T) {
			tr := &Transport{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, "data: 1\n\n")
				w.(http.Flusher).Flush()
				<-r.Context().Done()
			})}
			ctx, cancel := context.WithCancel(context.Background())
			req, _ := http.NewRequestWithContext(ctx, "GET", "http://x/", nil)
			resp, err := tr.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			time.AfterFunc(time.Millisecond, cancel)
			var got bytes.Buffer
			if copyWith == "Read" {
				_, err = io.Copy(&got, struct{ io.Reader }{resp.Body})
			} else {
				_, err = resp.Body.(io.WriterTo).WriteTo(&got)
			}
			if !errors.Is(err, context.Canceled) || got.String() != "data: 1\n\n" {
				t.Errorf("got %q, %v; want the first event, then context.Canceled", got.String(), err)
			}
		})
	}
}
