package chatstream

import (
	"io"
	"strings"
	"testing"
	"time"

	"loupe/app/fetch"
)

// TestChatRawKeepsTheExchangeAsItWent reads a stream through the recorder, as send does:
// the raw request is its line, headers and indented body; the raw response is the status,
// the headers and every SSE event as received, in order, to data: [DONE].
func TestChatRawKeepsTheExchangeAsItWent(t *testing.T) {
	stream := "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hel\"}}]}\n\n" +
		": a comment line\n\n" +
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"},\"finish_reason\":\"stop\"}]}\n\n" +
		"data: [DONE]\n\n"
	a := &Answer{}
	a.raw = chatRaw{method: "POST", url: "/proxy/chat/v1/chat/completions", body: []byte(`{"model":"m","messages":[{"role":"user","content":"hi there"}],"stream":true}`)}
	a.raw.head = rawHead(&fetch.Response{Status: 200, Headers: []fetch.Header{{Name: "content-type", Value: "text/event-stream"}}})
	var last chatSnapshot
	readChatStream(io.TeeReader(oneByteReader{strings.NewReader(stream)}, chatRawWriter{a}), time.Now, func(f func(*chatSnapshot)) { f(&last) })
	if last.content != "Hello" || last.cut != "" {
		t.Fatalf("the stream read through the recorder: got %q (cut %q); want Hello, whole", last.content, last.cut)
	}
	request, response, truncated := a.rawText()
	wantRequest := "POST /proxy/chat/v1/chat/completions\nContent-Type: application/json\nAccept: text/event-stream, application/json\n\n{\n  \"model\": \"m\",\n"
	if !strings.HasPrefix(request, wantRequest) || !strings.Contains(request, `"content": "hi there"`) {
		t.Errorf("request: got %q; want it to start %q and hold the message", request, wantRequest)
	}
	if want := "HTTP 200\ncontent-type: text/event-stream\n\n" + stream; response != want || truncated {
		t.Errorf("response: got %q (truncated %v); want %q", response, truncated, want)
	}
}

func TestChatRawWriterStopsAtItsLimit(t *testing.T) {
	a := &Answer{}
	a.raw = chatRaw{method: "POST", url: "/u", head: "HTTP 200\n"}
	w := chatRawWriter{a}
	for _, n := range []int{chatMaxBody - 3, 10, 5} {
		if got, err := w.Write(make([]byte, n)); got != n || err != nil {
			t.Fatalf("Write(%d bytes): got %d, %v; want every byte taken, no error", n, got, err)
		}
	}
	if got := len(a.raw.received); got != chatMaxBody || !a.raw.truncated {
		t.Errorf("got %d bytes kept (truncated %v); want %d, truncated", got, a.raw.truncated, chatMaxBody)
	}
	if req, resp, _ := (&Answer{}).rawText(); req != "" || resp != "" {
		t.Errorf("an answer not sent: got %q, %q; want nothing", req, resp)
	}
}

// oneByteReader reads one byte at a time, as a slow stream arrives.
type oneByteReader struct{ r io.Reader }

func (o oneByteReader) Read(p []byte) (int, error) { return o.r.Read(p[:min(len(p), 1)]) }
