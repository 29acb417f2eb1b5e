package proxy

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// roundTripFunc is a RoundTripper of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// ctxBody is a body that sends nothing until its request's context ends, then fails with it.
type ctxBody struct{ ctx context.Context }

func (b ctxBody) Read([]byte) (int, error) {
	<-b.ctx.Done()
	return 0, context.Cause(b.ctx)
}

func (ctxBody) Close() error { return nil }

// TestReusedTimersStillTimeOut: the timer of a finished call is handed to a later one
// (startIdleTimer). A later call's header wait and silent body still time out, whatever the
// calls before it did with theirs: closed their body (once, or twice, the second time after the
// later call took the timer), or failed.
func TestReusedTimersStillTimeOut(t *testing.T) {
	const limit = 100 * time.Millisecond
	answer := func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("{}")), Request: r}, nil
	}
	silentHeaders := func(r *http.Request) (*http.Response, error) {
		<-r.Context().Done()
		return nil, context.Cause(r.Context())
	}
	silentBody := func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: ctxBody{r.Context()}, Request: r}, nil
	}
	fail := func(*http.Request) (*http.Response, error) { return nil, errors.New("refused") }
	tests := []struct {
		name   string
		before roundTripFunc // the earlier calls' upstream
		twice  bool          // the earlier calls close their body a second time, after the later call began
		later  roundTripFunc
		want   error
	}{
		{"header wait after closed bodies", answer, false, silentHeaders, errHeaderTimeout},
		{"header wait after bodies closed twice", answer, true, silentHeaders, errHeaderTimeout},
		{"header wait after failed calls", fail, false, silentHeaders, errHeaderTimeout},
		{"silent body after closed bodies", answer, false, silentBody, errStreamIdle},
		{"silent body after bodies closed twice", answer, true, silentBody, errStreamIdle},
		{"silent body after failed calls", fail, false, silentBody, errStreamIdle},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var earlier []io.Closer
			for range 8 {
				tr := &timeoutTransport{next: tt.before, headerTimeout: limit, idleTimeout: limit}
				req, _ := http.NewRequest(http.MethodGet, "http://upstream.test/", nil)
				resp, err := tr.RoundTrip(req)
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					earlier = append(earlier, resp.Body)
				}
			}
			tr := &timeoutTransport{next: tt.later, headerTimeout: limit, idleTimeout: limit}
			req, _ := http.NewRequest(http.MethodGet, "http://upstream.test/", nil)
			done := make(chan error, 1)
			go func() {
				resp, err := tr.RoundTrip(req)
				if err == nil {
					_, err = io.ReadAll(resp.Body)
					resp.Body.Close()
				}
				done <- err
			}()
			if tt.twice {
				time.Sleep(limit / 4) // the later call has its timer by now
				for _, b := range earlier {
					b.Close()
				}
			}
			select {
			case err := <-done:
				if !errors.Is(err, tt.want) {
					t.Errorf("got %v; want %v", err, tt.want)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("got no time-out after 5 s; want %v after %s", tt.want, limit)
			}
		})
	}
}
