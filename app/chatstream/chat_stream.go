package chatstream

import (
	"context"
	"errors"
	"io"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"loupe/app/fetch"
	"loupe/app/markdown"
	"loupe/app/sse"
)

// chatFrame is the least time between two UI updates of a streaming answer: tokens that
// arrive faster are shown together, so a long answer costs one render per frame at most.
const chatFrame = 30 * time.Millisecond

// chatMaxBody bounds a non-streamed answer or an error body.
const chatMaxBody = 8 << 20

// chatGCPercent is the garbage collector's setting while answers stream. The wasm's collector
// marks the whole heap in one main-thread task, tens of milliseconds: a stream makes garbage
// (a JSON chunk per token), and collecting less often keeps those pauses out of the stream.
const chatGCPercent = 400

// chatStreams counts the answers streaming; chatGCSaved is the setting to restore after them.
var (
	chatStreams int
	chatGCSaved int
)

// chatHoldGC raises the collector's setting while the first answer streams (UI goroutine).
func chatHoldGC() {
	if chatStreams++; chatStreams == 1 {
		chatGCSaved = debug.SetGCPercent(chatGCPercent)
	}
}

// chatReleaseGC restores the setting once no answer streams (UI goroutine).
func chatReleaseGC() {
	if chatStreams--; chatStreams == 0 {
		debug.SetGCPercent(chatGCSaved)
	}
}

// Answer is an assistant answer: what arrived, how it renders and how the request went.
// Its fields belong to the UI goroutine; the reader goroutine only writes snap, under mu.
type Answer struct {
	md        *markdown.Stream
	Calls     []sse.ToolCall // the tool calls the answer asks for, as far as they arrived
	finish    string
	usage     *sse.Usage
	Status    int // the response's HTTP status; 0 until it arrives
	apiErr    *sse.APIError
	proxy     *proxyRefusal // apiErr is Loupe's proxy's, not the API's
	NetErr    string        // the request got no response
	Cut       string        // why the stream ended early; "" when it did not
	retry     bool          // the failure may be mended by sending again (CanRetry)
	Stopped   bool          // the user stopped it
	Streaming bool          // the request is under way
	chunks    int           // content chunks received, about one token each
	Start     time.Time     // when the answer was asked for
	ttft      time.Duration // time to first token; 0 until it arrives
	elapsed   time.Duration // until the last token, or until now while streaming
	firstAt   time.Time
	Answered  map[string]bool // tool call IDs answered with a result
	Rev       int             // bumped on every change, so the message component updates
	Restored  bool            // the answer came from a link (FromTranscript), not from the API now

	Cancel context.CancelFunc // cancels the request; set by the sender before Send, may be nil
	OnOver func(app.Context)  // called once the request is over
	Record *Record            // when set before send, keeps the response as it is read

	mu        sync.Mutex
	raw       chatRaw // the request sent and the response as received (chat_raw.go)
	body      io.Closer
	stopReq   bool
	snap      chatSnapshot
	scheduled bool
	lastFlush time.Time
}

// chatSnapshot is what the reader goroutine knows so far.
type chatSnapshot struct {
	status  int
	content string
	calls   []sse.ToolCall
	finish  string
	usage   *sse.Usage
	apiErr  *sse.APIError
	proxy   *proxyRefusal
	chunks  int
	firstAt time.Time
	cut     string
	netErr  string
	retry   bool // the failure may be mended by sending the same request again
	over    bool
}

// NewAnswer returns an answer about to be requested; finishUp ends it.
func NewAnswer(r *markdown.Renderer) *Answer {
	chatHoldGC()
	return &Answer{md: markdown.NewStream(r), Streaming: true, Start: time.Now(), Answered: map[string]bool{}}
}

// Send posts the request and reads the answer as it arrives, recording both as they went
// over the wire (Answer.rawText). Run it in ctx.Async.
func (a *Answer) Send(ctx app.Context, reqCtx context.Context, url string, body []byte) {
	a.mu.Lock()
	a.raw = chatRaw{method: "POST", url: url, body: body}
	a.mu.Unlock()
	res, err := fetch.Do(reqCtx, fetch.Request{Method: "POST", URL: url, Body: body, Headers: chatRequestHeaders})
	if err != nil {
		a.publish(ctx, func(s *chatSnapshot) { s.netErr, s.retry, s.over = err.Error(), true, true })
		return
	}
	a.mu.Lock()
	a.body, a.snap.status = res.Body, res.Status
	a.raw.head = rawHead(res)
	stopped := a.stopReq
	a.mu.Unlock()
	defer res.Body.Close()
	if stopped {
		return
	}
	update := func(f func(*chatSnapshot)) { a.publish(ctx, f) }
	var received io.Reader = io.TeeReader(res.Body, chatRawWriter{a})
	if a.Record != nil {
		a.Record.begin(res)
		received = io.TeeReader(received, a.Record)
	}
	if res.Status >= 400 && res.Header("X-Loupe-Error") == "proxy" {
		readProxyError(res.Status, received, update)
		return
	}
	if res.Status >= 400 || !strings.Contains(strings.ToLower(res.Header("Content-Type")), "text/event-stream") {
		readChatBody(res.Status, res.Header("Content-Type"), received, update)
		return
	}
	readChatStream(received, time.Now, update)
}

// readChatStream reads an SSE answer chunk by chunk, reporting after each chunk and once more,
// over, at the end. A stream that ends without [DONE] nor a finish reason, or with a read
// error, is reported cut; that, and an error event mid-stream, may be mended by sending the
// same request again.
func readChatStream(r io.Reader, now func() time.Time, update func(func(*chatSnapshot))) {
	var p sse.Parser
	var acc sse.Chat
	var firstAt time.Time
	bad := 0
	fold := func(events []sse.Event) {
		for _, ev := range events {
			if acc.Add(ev) != nil {
				bad++
			}
		}
		if firstAt.IsZero() && (acc.ContentChunks > 0 || len(acc.ToolCalls()) > 0) {
			firstAt = now()
		}
	}
	snapshot := func(s *chatSnapshot) {
		s.content, s.calls, s.finish, s.usage, s.apiErr = acc.Content(), chatCallsOf(acc.ToolCalls()), acc.FinishReason, acc.Usage, acc.Err
		s.chunks, s.firstAt = acc.ContentChunks, firstAt
	}
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			fold(p.Feed(buf[:n]))
			update(snapshot)
		}
		if err == nil {
			continue
		}
		fold(p.Finish())
		cut, retry := "", acc.Err != nil
		switch {
		case bad > 0 && acc.Chunks == 0:
			cut, retry = "the stream held no chat completion chunks", false // not the API's stream: sending again would not mend it
		case !errors.Is(err, io.EOF):
			cut, retry = "the connection broke before the answer's end ("+err.Error()+")", true
		case !acc.Done && acc.FinishReason == "" && acc.Err == nil:
			cut, retry = "the stream ended without the answer's last event ([DONE])", true
		}
		update(func(s *chatSnapshot) { snapshot(s); s.cut, s.retry, s.over = cut, retry, true })
		return
	}
}

// publish updates the snapshot and makes sure a flush is coming: at once when the last one is
// a frame old, or when the frame ends.
func (a *Answer) publish(ctx app.Context, f func(*chatSnapshot)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	f(&a.snap)
	if a.scheduled {
		return
	}
	a.scheduled = true
	if wait := chatFrame - time.Since(a.lastFlush); wait > 0 && !a.snap.over {
		ctx.After(wait, a.flush)
		return
	}
	ctx.Dispatch(a.flush)
}

// flush shows the snapshot. It runs on the UI goroutine.
func (a *Answer) flush(ctx app.Context) {
	a.mu.Lock()
	s := a.snap
	a.scheduled, a.lastFlush = false, time.Now()
	a.mu.Unlock()
	if !a.Streaming {
		return // stopped: what was shown stays
	}
	a.apply(s)
	if s.over {
		a.finishUp(ctx)
	}
}

// apply copies a snapshot into the answer and feeds the new text to the Markdown stream.
func (a *Answer) apply(s chatSnapshot) {
	if n := len(a.md.Text()); len(s.content) > n {
		a.md.Write(s.content[n:])
	}
	a.Status, a.Calls, a.finish, a.usage, a.chunks = s.status, s.calls, s.finish, s.usage, s.chunks
	if s.apiErr != nil {
		a.apiErr, a.proxy = s.apiErr, s.proxy
	}
	if s.netErr != "" {
		a.NetErr = s.netErr
	}
	if a.firstAt.IsZero() && !s.firstAt.IsZero() {
		a.firstAt, a.ttft = s.firstAt, s.firstAt.Sub(a.Start)
	}
	if !a.firstAt.IsZero() {
		a.elapsed = time.Since(a.firstAt)
	}
	a.Cut, a.retry = s.cut, s.retry
	a.Rev++
}

// Stop ends the request at once: cancels it, closes the body, keeps what arrived.
func (a *Answer) Stop(ctx app.Context) {
	if !a.Streaming {
		return
	}
	a.mu.Lock()
	a.stopReq = true
	body, s := a.body, a.snap
	a.mu.Unlock()
	if a.Cancel != nil {
		a.Cancel()
	}
	if body != nil {
		_ = body.Close()
	}
	s.over, s.cut = true, ""
	a.apply(s)
	a.Stopped = true
	a.finishUp(ctx)
}

// finishUp closes the answer once the request is over.
func (a *Answer) finishUp(ctx app.Context) {
	if a.Streaming {
		chatReleaseGC()
	}
	a.Streaming = false
	a.md.Close()
	if a.Cancel != nil {
		a.Cancel()
	}
	a.Rev++
	if a.OnOver != nil {
		a.OnOver(ctx)
		a.OnOver = nil
	}
}

// tokens returns the answer's token count: the API's usage when it sent one, else the number
// of content chunks.
func (a *Answer) tokens() int {
	if a.usage != nil && a.usage.CompletionTokens > 0 {
		return a.usage.CompletionTokens
	}
	return a.chunks
}
