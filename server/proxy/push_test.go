package proxy

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"loupe/server/internal/inproc"
)

// newPushHarness is a proxy whose upstream is the backend's handler reached in-process, as
// the built-in sandboxes are: its bodies write themselves (the push path).
func newPushHarness(t *testing.T, idle time.Duration, h http.HandlerFunc) *harness {
	t.Helper()
	hs := newHarnessWith(t, func(c *Config, b *backend) {
		c.Transport = &inproc.Transport{Handler: b.Config.Handler}
		c.StreamIdleTimeout = idle
	})
	hs.backend.setHandler(h)
	return hs
}

func TestPushedBodies(t *testing.T) {
	big := strings.Repeat("a", 5000)
	masked := strings.Repeat("*", len(chatKey))
	tests := []struct {
		name   string
		ctype  string
		writes []string
		want   string
	}{
		{"a secret split across writes is masked", "text/event-stream",
			[]string{"data: x" + chatKey[:5], chatKey[5:10], chatKey[10:] + "y\n\n"}, "data: x" + masked + "y\n\n"},
		{"a secret's beginning at the end is passed on", "text/event-stream",
			[]string{"data: ", chatKey[:8]}, "data: " + chatKey[:8]},
		{"a write larger than the scratch buffer is masked throughout", "application/json",
			[]string{big[:4090] + chatKey + big, chatKey}, big[:4090] + masked + big + masked},
		{"a short body", "application/json", []string{`{"key":"` + chatKey + `"}`}, `{"key":"` + masked + `"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newPushHarness(t, time.Minute, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.ctype)
				for _, s := range tt.writes {
					io.WriteString(w, s)
					w.(http.Flusher).Flush()
				}
			})
			resp, body := h.do(t, "GET", "/proxy/chat/v1/stream", nil, nil)
			if resp.StatusCode != 200 || body != tt.want {
				t.Errorf("got %d %q; want 200 %q", resp.StatusCode, body, tt.want)
			}
		})
	}
}

// TestPushedEventsArriveOneByOne: each event reaches the client while the handler waits for
// the client to have read it.
func TestPushedEventsArriveOneByOne(t *testing.T) {
	read := make(chan struct{})
	h := newPushHarness(t, time.Minute, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 3 {
			io.WriteString(w, "data: "+string(rune('a'+i))+"\n\n")
			w.(http.Flusher).Flush()
			select {
			case <-read:
			case <-r.Context().Done():
				return
			}
		}
	})
	resp, err := h.Client().Get(h.URL + "/proxy/chat/v1/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	for _, want := range []string{"data: a\n", "\n", "data: b\n", "\n", "data: c\n", "\n"} {
		got, err := br.ReadString('\n')
		if got != want {
			t.Fatalf("got %q (%v); want %q", got, err, want)
		}
		if want == "\n" {
			read <- struct{}{}
		}
	}
}

// TestPushedStreamEnds: a client that leaves ends the handler, and a silent upstream's stream is closed with the error event.
func TestPushedStreamEnds(t *testing.T) {
	t.Run("the client leaves", func(t *testing.T) {
		ended := make(chan struct{})
		h := newPushHarness(t, time.Minute, func(w http.ResponseWriter, r *http.Request) {
			defer close(ended)
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: a\n\n")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		})
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, "GET", h.URL+"/proxy/chat/v1/stream", nil)
		resp, err := h.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := bufio.NewReader(resp.Body).ReadString('\n'); got != "data: a\n" {
			t.Fatalf("got %q (%v); want the first event", got, err)
		}
		cancel()
		resp.Body.Close()
		<-ended // the handler's context ended: it would wait forever otherwise
		// The audit line says the stream was cut, as it does for an upstream over a connection
		// (TestFaultMatrix): the handler's return is not a whole answer.
		deadline := time.Now().Add(5 * time.Second)
		for lastAudit(h) == "" && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if line := lastAudit(h); !strings.Contains(line, "outcome=aborted") {
			t.Errorf("audit: got %q; want outcome=aborted", line)
		}
	})
	t.Run("the upstream is silent", func(t *testing.T) {
		h := newPushHarness(t, 100*time.Millisecond, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: a\n\n")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		})
		_, body := h.do(t, "GET", "/proxy/chat/v1/stream", nil, nil)
		if !strings.HasPrefix(body, "data: a\n\n") || !strings.Contains(body, "event: error") {
			t.Errorf("got %q; want the event, then the idle time-out's error event", body)
		}
	})
}

// TestPushedStreamHeaders: a pushed event stream reaches the client as one (its Content-Type,
// no length, chunked), and a handler silent after its headers still has them reach the client
// (within headerHold), as over a connection (TestHeadersOfASilentStream).
func TestPushedStreamHeaders(t *testing.T) {
	gotHeaders := make(chan struct{})
	h := newPushHarness(t, time.Minute, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.(http.Flusher).Flush()
		select {
		case <-gotHeaders:
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, "data: late\n\n")
	})
	done := make(chan error, 1)
	go func() {
		resp, err := h.Client().Get(h.URL + "/proxy/chat/v1/stream")
		if err != nil {
			done <- err
			return
		}
		defer resp.Body.Close()
		close(gotHeaders)
		if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream; charset=utf-8" || resp.ContentLength != -1 ||
			len(resp.TransferEncoding) != 1 || resp.Header.Get("Cache-Control") != "no-cache" {
			done <- fmt.Errorf("got Content-Type %q, length %d, transfer encoding %v, Cache-Control %q; want the stream's, no length, chunked",
				ct, resp.ContentLength, resp.TransferEncoding, resp.Header.Get("Cache-Control"))
			return
		}
		if got, err := bufio.NewReader(resp.Body).ReadString('\n'); got != "data: late\n" {
			done <- fmt.Errorf("got %q (%v); want the event written after the headers arrived", got, err)
			return
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the client never got the headers of a pushed stream whose handler writes its first event only after that")
	}
}
