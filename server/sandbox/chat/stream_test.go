package chat

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestStreamShape(t *testing.T) {
	h := New(Options{Key: testKey})
	tests := []struct {
		name         string
		extra        map[string]any
		finish       string
		includeUsage bool
	}{
		{"plain", nil, "stop", false},
		{"include usage", map[string]any{"stream_options": map[string]any{"include_usage": true}}, "stop", true},
		{"cut", map[string]any{"max_tokens": 40}, "length", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := complete(t, h, userBody("a timer and a counter", tt.extra))
			extra := map[string]any{"stream": true}
			for k, v := range tt.extra {
				extra[k] = v
			}
			rec := post(t, h, testKey, userBody("a timer and a counter", extra))
			if rec.Code != 200 {
				t.Fatalf("status = %d; want 200", rec.Code)
			}
			if got := rec.Header().Get("Content-Type"); got != "text/event-stream" {
				t.Errorf("Content-Type = %q; want text/event-stream", got)
			}
			if got := rec.Header().Get("Cache-Control"); got != "no-cache" {
				t.Errorf("Cache-Control = %q; want no-cache", got)
			}
			if !rec.Flushed {
				t.Error("the stream was never flushed")
			}
			chunks := chunksOf(t, rec.Body.String())
			var usageChunk *chunk
			if tt.includeUsage {
				last := chunks[len(chunks)-1]
				chunks = chunks[:len(chunks)-1]
				usageChunk = &last
			}
			first, final := chunks[0], chunks[len(chunks)-1]
			if first.Choices[0].Delta.Role != "assistant" {
				t.Errorf("first delta role = %q; want assistant", first.Choices[0].Delta.Role)
			}
			var text strings.Builder
			for i, c := range chunks {
				if c.Object != "chat.completion.chunk" || c.Model != ModelID || c.ID != chunks[0].ID || len(c.Choices) != 1 {
					t.Fatalf("chunk %d: object %q, model %q, id %q, %d choices", i, c.Object, c.Model, c.ID, len(c.Choices))
				}
				if i > 0 && c.Choices[0].Delta.Role != "" {
					t.Errorf("chunk %d repeats the role", i)
				}
				if (c.Choices[0].FinishReason != nil) != (i == len(chunks)-1) {
					t.Errorf("chunk %d: finish_reason %v; want it only on the last chunk", i, c.Choices[0].FinishReason)
				}
				if c.Choices[0].Delta.Content != nil {
					text.WriteString(*c.Choices[0].Delta.Content)
				}
			}
			if got := *final.Choices[0].FinishReason; got != tt.finish {
				t.Errorf("finish_reason = %q; want %q", got, tt.finish)
			}
			if text.String() != want.content() {
				t.Error("the streamed deltas differ from the non-streamed content")
			}
			if got, want := len(chunks), want.Usage.CompletionTokens+2; got != want {
				t.Errorf("got %d chunks; want %d (role, one per token, finish)", got, want)
			}
			if tt.includeUsage {
				if got := strings.Count(rec.Body.String(), `"usage":null`); got != len(chunks) {
					t.Errorf("%d chunks have usage null; want all %d but the usage chunk", got, len(chunks))
				}
				if len(usageChunk.Choices) != 0 || usageChunk.Usage == nil || *usageChunk.Usage != want.Usage {
					t.Errorf("usage chunk: %d choices, usage %+v; want 0 choices and %+v", len(usageChunk.Choices), usageChunk.Usage, want.Usage)
				}
			} else if strings.Contains(rec.Body.String(), `"usage"`) {
				t.Error("usage sent without stream_options.include_usage")
			}
		})
	}
}

// fakeClock is a clock that sleeping advances.
type fakeClock struct {
	now   time.Time
	slept time.Duration
	naps  int
}

func (c *fakeClock) Now() time.Time { return c.now }

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.now = c.now.Add(d)
	c.slept += d
	c.naps++
	return ctx.Err()
}

func TestPacer(t *testing.T) {
	tests := []struct {
		tps    float64
		tokens int
		work   time.Duration // time each write takes
		want   time.Duration // total time slept
	}{
		{40, 80, 0, 2 * time.Second},
		{40, 80, 5 * time.Millisecond, 2*time.Second - 79*5*time.Millisecond}, // the schedule absorbs the writes
		{40, 80, 50 * time.Millisecond, 25 * time.Millisecond},                // writes slower than the pace: only the first waits
		{0, 80, 0, 0},
		{-1, 80, 0, 0},
		{1000, 10, 0, 10 * time.Millisecond},
	}
	for _, tt := range tests {
		clock := &fakeClock{now: time.Unix(0, 0)}
		p := newPacer(tt.tps, clock.Now, clock.Sleep)
		for range tt.tokens {
			if err := p.wait(context.Background(), 1); err != nil {
				t.Fatalf("wait: %v", err)
			}
			clock.now = clock.now.Add(tt.work)
		}
		if diff := clock.slept - tt.want; diff < -time.Millisecond || diff > time.Millisecond {
			t.Errorf("%v tokens/s, %d tokens, %v per write: slept %v; want %v", tt.tps, tt.tokens, tt.work, clock.slept, tt.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	clock := &fakeClock{now: time.Unix(0, 0)}
	if err := newPacer(40, clock.Now, clock.Sleep).wait(ctx, 1); err == nil {
		t.Error("wait on a cancelled context: got nil error; want one")
	}
}

func TestStreamPacedByHandler(t *testing.T) {
	clock := &fakeClock{now: time.Unix(0, 0)}
	h := New(Options{Key: testKey, TokensPerSecond: 40}).(*handler)
	h.now, h.sleep = clock.Now, clock.Sleep
	rec := post(t, h, testKey, userBody("Build a counter", map[string]any{"stream": true, "max_tokens": 200}))
	if got := len(chunksOf(t, rec.Body.String())); got != 202 {
		t.Fatalf("got %d chunks; want 202", got)
	}
	if clock.slept != 5*time.Second || clock.naps != 200 {
		t.Errorf("slept %v in %d naps; want 5s (200 tokens at 40/s) in 200", clock.slept, clock.naps)
	}
}

func TestStreamStopsWhenClientLeaves(t *testing.T) {
	done := make(chan struct{})
	inner := New(Options{Key: testKey, TokensPerSecond: 500})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(done)
		inner.ServeHTTP(w, r)
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	body := `{"model":"v0-1.0-md","stream":true,"messages":[{"role":"user","content":"write a 32000 token answer"}]}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/chat/completions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testKey)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatalf("request: %v", err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for range 10 { // a few chunks arrive
		if !sc.Scan() {
			t.Fatalf("stream ended early: %v", sc.Err())
		}
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler still runs 5s after the client left (32,000 tokens at 500/s take 64s)")
	}
}
