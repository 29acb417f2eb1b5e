package inproc

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

// failingWriter fails every write after the first ok ones.
type failingWriter struct {
	bytes.Buffer
	ok int
}

var errGone = errors.New("client gone")

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.ok == 0 {
		return 0, errGone
	}
	w.ok--
	return w.Buffer.Write(p)
}

func TestWriteTo(t *testing.T) {
	long := strings.Repeat("x", 3000)
	tests := []struct {
		name      string
		h         http.HandlerFunc
		okWrites  int // writes dst accepts; -1: all
		read      int // bytes read with Read before WriteTo
		wantBody  string
		wantErr   error // errors.Is; nil: none
		wantPanic bool  // an error that is not wantErr
		trailer   string
	}{
		{"events are written as the handler writes them", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.(http.Flusher).Flush()
			io.WriteString(w, "data: one\n\n")
			io.WriteString(w, "data: two\n\n")
		}, -1, 0, "data: one\n\ndata: two\n\n", nil, false, ""},
		{"what a Read left comes first", func(w http.ResponseWriter, r *http.Request) {
			w.(http.Flusher).Flush()
			io.WriteString(w, "abcdef")
			io.WriteString(w, "ghi")
		}, -1, 2, "cdefghi", nil, false, ""},
		{"a body held before the headers is written", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, long)
		}, -1, 0, long, nil, false, ""},
		{"trailers are passed on at the end", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Trailer", "X-Sum")
			w.(http.Flusher).Flush()
			io.WriteString(w, "body")
			w.Header().Set("X-Sum", "42")
		}, -1, 0, "body", nil, false, "42"},
		{"a failed write fails the handler's and cancels it", func(w http.ResponseWriter, r *http.Request) {
			w.(http.Flusher).Flush()
			io.WriteString(w, "one")
			if _, err := io.WriteString(w, "two"); err == nil {
				panic("the second write succeeded")
			}
			<-r.Context().Done() // returns only if cancelled
		}, 1, 0, "one", errGone, false, ""},
		{"a panic is the error", func(w http.ResponseWriter, r *http.Request) {
			w.(http.Flusher).Flush()
			io.WriteString(w, "one")
			panic("boom")
		}, -1, 0, "one", nil, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", "http://x/", nil)
			tr := &Transport{Handler: tt.h, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
			resp, err := tr.RoundTrip(req)
			if err != nil {
				t.Fatalf("RoundTrip: %v", err)
			}
			defer resp.Body.Close()
			if tt.read > 0 {
				if _, err := io.ReadFull(resp.Body, make([]byte, tt.read)); err != nil {
					t.Fatal(err)
				}
			}
			dst := &failingWriter{ok: tt.okWrites}
			if tt.okWrites < 0 {
				dst.ok = 1 << 30
			}
			n, err := resp.Body.(io.WriterTo).WriteTo(dst)
			if got := dst.String(); got != tt.wantBody || n != int64(len(got)) {
				t.Errorf("body: got %q (n %d); want %q", got, n, tt.wantBody)
			}
			switch {
			case tt.wantPanic:
				if err == nil || !strings.Contains(err.Error(), "panicked") {
					t.Errorf("err: got %v; want the handler's panic", err)
				}
			case !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil):
				t.Errorf("err: got %v; want %v", err, tt.wantErr)
			}
			if got := resp.Trailer.Get("X-Sum"); got != tt.trailer {
				t.Errorf("trailer: got %q; want %q", got, tt.trailer)
			}
		})
	}
}
