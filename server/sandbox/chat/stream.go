package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// chunkJSON is a chat.completion.chunk object.
type chunkJSON struct {
	ID                string            `json:"id"`
	Object            string            `json:"object"`
	Created           int64             `json:"created"`
	Model             string            `json:"model"`
	SystemFingerprint string            `json:"system_fingerprint"`
	Choices           []chunkChoiceJSON `json:"choices"`
	Usage             json.RawMessage   `json:"usage,omitempty"` // null, or the usage, with include_usage
}

// chunkChoiceJSON is the one choice of a chunk.
type chunkChoiceJSON struct {
	Index        int       `json:"index"`
	Delta        deltaJSON `json:"delta"`
	Logprobs     *struct{} `json:"logprobs"`
	FinishReason *string   `json:"finish_reason"`
}

// deltaJSON is the part of the message a chunk adds.
type deltaJSON struct {
	Role      string              `json:"role,omitempty"`
	Content   *string             `json:"content,omitempty"`
	ToolCalls []toolCallDeltaJSON `json:"tool_calls,omitempty"`
}

// toolCallDeltaJSON is a fragment of a tool call: the first carries id,
// type and name (with empty arguments), later ones only argument text.
type toolCallDeltaJSON struct {
	Index    int               `json:"index"`
	ID       string            `json:"id,omitempty"`
	Type     string            `json:"type,omitempty"`
	Function functionDeltaJSON `json:"function"`
}

// functionDeltaJSON is the function part of a tool call fragment.
type functionDeltaJSON struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// pacer spaces chunks so that tokens leave at a steady rate. It keeps a
// schedule from its start, so slow writes do not add up to a slower stream.
type pacer struct {
	perToken time.Duration // 0: no delay
	start    time.Time
	sent     int
	now      func() time.Time
	sleep    func(ctx context.Context, d time.Duration) error
}

// newPacer returns a pacer for tokensPerSecond (<= 0: no delay).
func newPacer(tokensPerSecond float64, now func() time.Time, sleep func(context.Context, time.Duration) error) *pacer {
	p := &pacer{now: now, sleep: sleep, start: now()}
	if tokensPerSecond > 0 {
		p.perToken = time.Duration(float64(time.Second) / tokensPerSecond)
	}
	return p
}

// wait blocks until n more tokens are due, or ctx is done.
func (p *pacer) wait(ctx context.Context, n int) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("stream stopped: %w", err)
	}
	if p.perToken <= 0 {
		return nil
	}
	p.sent += n
	due := p.start.Add(time.Duration(p.sent) * p.perToken)
	if d := due.Sub(p.now()); d > 0 {
		return p.sleep(ctx, d)
	}
	return nil
}

// sseWriter writes chunks as Server-Sent Events and flushes each one.
//
// It encodes every event into one buffer of its own, reused for the stream's life, from a
// chunk and choice it also reuses: a stream of 200 tokens used to leave about 1 KB of garbage
// per token (the chunk boxed for json.Marshal, its choice slice, Marshal's result and a copy
// with the data: prefix), which with 2,000 concurrent streams kept the collector busy and the
// heap well above what was live.
type sseWriter struct {
	w    http.ResponseWriter
	rc   *http.ResponseController
	meta responseMeta
	// usage is "null" on every chunk when the request asked for usage, so
	// clients see the field, and nil otherwise.
	usage json.RawMessage

	buf    bytes.Buffer  // the event being written: data: <json>\n\n
	enc    *json.Encoder // encodes into buf, escaping HTML as json.Marshal does
	chunk  chunkJSON     // the chunk of send, reused
	choice [1]chunkChoiceJSON
}

// newSSEWriter returns the writer of one stream to w.
func newSSEWriter(w http.ResponseWriter, meta responseMeta) *sseWriter {
	s := &sseWriter{w: w, rc: http.NewResponseController(w), meta: meta}
	s.enc = json.NewEncoder(&s.buf)
	return s
}

// send writes one chunk with the given delta and finish reason.
func (s *sseWriter) send(d deltaJSON, finish string) error {
	s.choice[0] = chunkChoiceJSON{Delta: d, FinishReason: nullable(finish)}
	s.chunk = chunkJSON{
		ID: s.meta.id, Object: "chat.completion.chunk", Created: s.meta.created, Model: ModelID,
		SystemFingerprint: systemFingerprint,
		Choices:           s.choice[:],
		Usage:             s.usage,
	}
	return s.event(&s.chunk)
}

// event writes one data: line for v.
func (s *sseWriter) event(v any) error {
	s.buf.Reset()
	s.buf.WriteString("data: ")
	if err := s.enc.Encode(v); err != nil { // ends with a newline
		return fmt.Errorf("encode chunk: %w", err)
	}
	s.buf.WriteByte('\n')
	return s.write()
}

// raw writes "data: <data>\n\n" and flushes.
func (s *sseWriter) raw(data []byte) error {
	s.buf.Reset()
	s.buf.WriteString("data: ")
	s.buf.Write(data)
	s.buf.WriteString("\n\n")
	return s.write()
}

// write writes the event in buf and flushes it.
func (s *sseWriter) write() error {
	if _, err := s.w.Write(s.buf.Bytes()); err != nil {
		return fmt.Errorf("write chunk: %w", err)
	}
	if err := s.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return fmt.Errorf("flush chunk: %w", err)
	}
	return nil
}

// stream sends out as chat.completion.chunk events: a first delta with the
// role, one token per chunk (paced), a last chunk with the finish reason, the
// usage chunk when asked, and data: [DONE]. It returns as soon as ctx is done
// or a write fails (the client left).
func (h *handler) stream(ctx context.Context, w http.ResponseWriter, meta responseMeta, out output, includeUsage bool) {
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-cache")
	hdr.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	s := newSSEWriter(w, meta)
	if includeUsage {
		s.usage = json.RawMessage("null")
	}
	// The stream ends early only when the client is gone; there is no one
	// left to tell, so the error is dropped.
	_ = h.sendAll(ctx, s, out, includeUsage)
}

// sendAll writes every event of the stream.
func (h *handler) sendAll(ctx context.Context, s *sseWriter, out output, includeUsage bool) error {
	p := newPacer(h.opts.TokensPerSecond, h.now, h.sleep)
	if len(out.calls) == 0 {
		empty := ""
		if err := s.send(deltaJSON{Role: "assistant", Content: &empty}, ""); err != nil {
			return err
		}
		if err := eachToken(out.content, func(tok string) error {
			if err := p.wait(ctx, 1); err != nil {
				return err
			}
			return s.send(deltaJSON{Content: &tok}, "")
		}); err != nil {
			return err
		}
	}
	for i, c := range out.calls {
		if err := p.wait(ctx, countTokens(c.name)); err != nil {
			return err
		}
		head := deltaJSON{ToolCalls: []toolCallDeltaJSON{{Index: i, ID: c.id, Type: "function",
			Function: functionDeltaJSON{Name: c.name}}}}
		if i == 0 {
			head.Role = "assistant"
		}
		if err := s.send(head, ""); err != nil {
			return err
		}
		if err := eachToken(c.args, func(tok string) error {
			if err := p.wait(ctx, 1); err != nil {
				return err
			}
			d := deltaJSON{ToolCalls: []toolCallDeltaJSON{{Index: i, Function: functionDeltaJSON{Arguments: tok}}}}
			return s.send(d, "")
		}); err != nil {
			return err
		}
	}
	if err := s.send(deltaJSON{}, out.finish); err != nil {
		return err
	}
	if includeUsage {
		u, err := json.Marshal(usageOf(s.meta, out))
		if err != nil {
			return fmt.Errorf("encode usage: %w", err)
		}
		final := chunkJSON{ID: s.meta.id, Object: "chat.completion.chunk", Created: s.meta.created, Model: ModelID,
			SystemFingerprint: systemFingerprint, Choices: []chunkChoiceJSON{}, Usage: u}
		if err := s.event(final); err != nil {
			return err
		}
	}
	return s.raw([]byte("[DONE]"))
}
