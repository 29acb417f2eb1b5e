package proxy

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

// sseHandler sends n events interval apart, then stalls for stall (if set) before the end.
func sseHandler(n int, interval, stall time.Duration) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		for i := range n {
			fmt.Fprintf(w, "data: {\"n\":%d}\n\n", i)
			_ = rc.Flush()
			select {
			case <-time.After(interval):
			case <-r.Context().Done():
				return
			}
		}
		if stall > 0 {
			select {
			case <-time.After(stall):
			case <-r.Context().Done():
				return
			}
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}
}

func TestSSEEventsArriveAsSent(t *testing.T) {
	h := newHarness(t, nil)
	// The events are 3 s apart: a proxy that buffers shows the first one late, and a loaded
	// machine still has seconds to spare.
	h.backend.setHandler(sseHandler(3, 3*time.Second, 0))
	start := time.Now()
	resp, err := h.Client().Get(h.URL + "/proxy/chat/v1/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if got := time.Since(start); got > 2*time.Second {
		t.Errorf("first event after %s; want it well before the second is sent (3s)", got)
	}
	if line != "data: {\"n\":0}\n" {
		t.Errorf("got %q", line)
	}
}

func TestSSEIdleTimeout(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.StreamIdleTimeout = 300 * time.Millisecond })
	h.backend.setHandler(sseHandler(4, 100*time.Millisecond, time.Hour))
	start := time.Now()
	resp, body := h.do(t, "GET", "/proxy/chat/v1/stream", nil, nil)
	took := time.Since(start)
	if resp.StatusCode != 200 {
		t.Fatalf("got %d", resp.StatusCode)
	}
	// Four events 100ms apart outlast the idle time-out in total, not between two events.
	for i := range 4 {
		if want := fmt.Sprintf("data: {\"n\":%d}", i); !strings.Contains(body, want) {
			t.Errorf("got %q; want event %d", body, i)
		}
	}
	if !strings.Contains(body, "event: error\ndata: {\"error\":\"the upstream sent nothing for 300ms") {
		t.Errorf("got %q; want a closing error event", body)
	}
	if !strings.Contains(body, "server.limits.stream_idle_timeout") {
		t.Errorf("got %q; want the closing event to name the setting", body)
	}
	if took > 2*time.Second {
		t.Errorf("the stream ended after %s; want soon after the idle time-out", took)
	}
}

// TestSSEIdleTimeoutAfterAShorterHeaderWait: with a header time-out shorter than the idle one,
// the timer armed for the headers goes on watching the body (it is not reset when they come):
// events further apart than the header wait all arrive, and a stream silent for the idle wait
// is closed then, not at the header wait.
func TestSSEIdleTimeoutAfterAShorterHeaderWait(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		c.UpstreamTimeout, c.StreamIdleTimeout = 150*time.Millisecond, 400*time.Millisecond
	})
	h.backend.setHandler(sseHandler(3, 250*time.Millisecond, time.Hour))
	start := time.Now()
	resp, body := h.do(t, "GET", "/proxy/chat/v1/stream", nil, nil)
	took := time.Since(start)
	if resp.StatusCode != 200 {
		t.Fatalf("got %d", resp.StatusCode)
	}
	for i := range 3 {
		if want := fmt.Sprintf("data: {\"n\":%d}", i); !strings.Contains(body, want) {
			t.Errorf("got %q; want event %d", body, i)
		}
	}
	if !strings.Contains(body, "event: error\ndata: {\"error\":\"the upstream sent nothing for 400ms") {
		t.Errorf("got %q; want a closing error event naming the idle time-out", body)
	}
	// The last event leaves at 500 ms; the stream is closed 400 ms of silence later.
	if took < 850*time.Millisecond || took > 3*time.Second {
		t.Errorf("the stream ended after %s; want about 900 ms", took)
	}
}

func TestBodyCap(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.MaxBody = 1000 })
	big := strings.Repeat("x", 1001)
	tests := []struct {
		name string
		body io.Reader
	}{
		{"with Content-Length", strings.NewReader(big)},
		{"chunked", io.MultiReader(strings.NewReader(big))}, // no length: sent chunked
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := h.do(t, "POST", "/proxy/chat/v1/chat/completions", tt.body, nil)
			if resp.StatusCode != http.StatusRequestEntityTooLarge || resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("got %d %s; want 413 JSON", resp.StatusCode, body)
			}
			if !strings.Contains(body, "server.limits.max_body") || !strings.Contains(body, `"api":"chat"`) {
				t.Errorf("got %s; want the API and the setting named", body)
			}
		})
	}
	if resp, _ := h.do(t, "POST", "/proxy/chat/v1/chat/completions", strings.NewReader(big[:1000]), nil); resp.StatusCode != 200 {
		t.Errorf("a body at the cap: got %d; want 200", resp.StatusCode)
	}
}

func TestUpstreamFailures(t *testing.T) {
	closed := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		return "http://" + addr
	}()
	tests := []struct {
		name       string
		edit       func(*Config, *backend)
		wantStatus int
		want       []string
	}{
		{"connection refused", func(c *Config, _ *backend) {
			c.APIs = testAPIs(closed)
		}, 502, []string{`"api":"chat"`, "connection refused", "apis.chat.base_url"}},
		{"no answer in time", func(c *Config, b *backend) {
			c.UpstreamTimeout = 200 * time.Millisecond
			b.setHandler(func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-time.After(5 * time.Second):
				case <-r.Context().Done():
				}
			})
		}, 504, []string{`"api":"chat"`, "did not answer within 200ms", "server.limits.upstream_timeout"}},
		{"host not found", func(c *Config, _ *backend) {
			c.APIs = testAPIs("http://nonexistent.invalid")
		}, 502, []string{`"api":"chat"`, "could not get an answer from http://nonexistent.invalid"}},
		{"not a TLS server", func(c *Config, b *backend) {
			c.APIs = testAPIs(strings.Replace(b.URL, "http:", "https:", 1))
		}, 502, []string{`"api":"chat"`, "could not get an answer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarnessWith(t, tt.edit)
			resp, body := h.do(t, "GET", "/proxy/chat/v1/stream", nil, nil)
			if resp.StatusCode != tt.wantStatus || resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("got %d %s; want %d JSON", resp.StatusCode, body, tt.wantStatus)
			}
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("got %s; want it to contain %q", body, w)
				}
			}
		})
	}
}

// TestAbortedStreamsDoNotLeak opens 1,000 streams through the proxy and drops each after its
// first event: every upstream request must be cancelled, and no goroutine left behind.
func TestAbortedStreamsDoNotLeak(t *testing.T) {
	h := newHarness(t, nil)
	upstreamDone := make(chan struct{}, 1000)
	h.backend.setHandler(func(w http.ResponseWriter, r *http.Request) {
		defer func() { upstreamDone <- struct{}{} }()
		sseHandler(1000, 10*time.Millisecond, 0)(w, r)
	})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	defer client.CloseIdleConnections()
	// Warm up, so pools and servers have their steady-state goroutines.
	abortOne(t, client, h.URL)
	<-upstreamDone
	time.Sleep(100 * time.Millisecond)
	before := runtime.NumGoroutine()

	const n = 1000
	sem := make(chan struct{}, 50)
	errs := make(chan error, n)
	for range n {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			errs <- abortOneErr(client, h.URL)
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		select {
		case <-upstreamDone:
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d of %d upstream requests were cancelled", i, n)
		}
	}
	client.CloseIdleConnections()
	var after int
	for range 50 {
		time.Sleep(100 * time.Millisecond)
		if after = runtime.NumGoroutine(); after <= before+5 {
			break
		}
	}
	if after > before+5 {
		buf := make([]byte, 1<<20)
		t.Fatalf("goroutines: %d before, %d after 1,000 aborted streams\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
	t.Logf("goroutines: %d before, %d after %d aborted streams", before, after, n)
}

func abortOne(t *testing.T, c *http.Client, base string) {
	if err := abortOneErr(c, base); err != nil {
		t.Fatal(err)
	}
}

func abortOneErr(c *http.Client, base string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/proxy/chat/v1/stream", nil)
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil {
		return fmt.Errorf("first event: %w", err)
	}
	cancel()
	return nil
}

// TestIdleBodyIsCut checks that a body that is not an event stream and stalls is cut after the
// idle time-out rather than held forever.
func TestIdleBodyIsCut(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.StreamIdleTimeout = 300 * time.Millisecond })
	h.backend.setHandler(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"partial":`)
		http.NewResponseController(w).Flush()
		select {
		case <-time.After(time.Hour):
		case <-r.Context().Done():
		}
	})
	start := time.Now()
	resp, err := h.Client().Get(h.URL + "/proxy/chat/v1/stream")
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if err == nil {
		t.Errorf("got a complete body; want the connection cut")
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("cut after %s; want soon after the idle time-out", took)
	}
}
