package chatstream

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"loupe/app/markdown"
	"loupe/app/sse"
)

func TestChatBody(t *testing.T) {
	answer := &Answer{md: markdown.NewStream(Markdown())}
	answer.md.Write("Calling the tool.")
	answer.Calls = []sse.ToolCall{{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}}
	failed := &Answer{md: markdown.NewStream(Markdown())} // an error before any token: left out
	turns := []*Turn{
		{Role: "user", Text: "hi"},
		{Role: "assistant", Answer: failed},
		{Role: "user", Text: "what is this?", Image: &Image{Mime: "image/png", DataURL: "data:image/png;base64,AAAA"}},
		{Role: "assistant", Answer: answer},
		{Role: "tool", Text: `{"temp":21}`, ToolCallID: "call_1"},
	}
	body, err := Body(Settings{Model: "v0-1.0-md", System: "Be brief.", Stream: true, Tools: ToolsExample, ToolChoice: "auto"}, turns)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	msgs := got["messages"].([]any)
	role := func(i int) string { return msgs[i].(map[string]any)["role"].(string) }
	tests := []struct {
		name      string
		got, want any
	}{
		{"model", got["model"], "v0-1.0-md"},
		{"stream", got["stream"], true},
		{"usage asked for", got["stream_options"], map[string]any{"include_usage": true}},
		{"tool_choice", got["tool_choice"], "auto"},
		{"one tool", len(got["tools"].([]any)), 1},
		{"messages", len(msgs), 5},
		{"system first", role(0), "system"},
		{"then the user", role(1), "user"},
		{"the failed answer is left out", role(2), "user"},
		{"image part", msgs[2].(map[string]any)["content"].([]any)[1], map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64,AAAA"}}},
		{"tool call kept", msgs[3].(map[string]any)["tool_calls"].([]any)[0].(map[string]any)["id"], "call_1"},
		{"tool result", msgs[4].(map[string]any)["tool_call_id"], "call_1"},
	}
	for _, tt := range tests {
		gotJSON, _ := json.Marshal(tt.got)
		wantJSON, _ := json.Marshal(tt.want)
		if string(gotJSON) != string(wantJSON) {
			t.Errorf("%s: got %s; want %s", tt.name, gotJSON, wantJSON)
		}
	}
}

func TestChatBodyRejectsBadTools(t *testing.T) {
	_, err := Body(Settings{Tools: "{not json"}, []*Turn{{Role: "user", Text: "x"}})
	if err == nil {
		t.Error("got no error; want one about tools")
	}
}

func TestChatBodyWithoutStream(t *testing.T) {
	body, _ := Body(Settings{}, []*Turn{{Role: "user", Text: "x"}})
	if got := string(body); strings.Contains(got, "stream") || !strings.Contains(got, defaultChatModel) {
		t.Errorf("got %s; want no stream fields and the default model", got)
	}
}

// cutReader returns its data, then an error.
type cutReader struct {
	data []string
	err  error
}

func (r *cutReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data[0])
	r.data = r.data[1:]
	return n, nil
}

func TestReadChatStream(t *testing.T) {
	chunk := func(s string) string {
		return `data: {"choices":[{"index":0,"delta":{"content":"` + s + `"}}]}` + "\n\n"
	}
	tests := []struct {
		name        string
		r           io.Reader
		wantContent string
		wantCut     bool
		wantErr     string
	}{
		{"complete", &cutReader{[]string{chunk("He"), chunk("llo"), "data: [DONE]\n\n"}, io.EOF}, "Hello", false, ""},
		{"finish reason without DONE", &cutReader{[]string{chunk("A"), `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n"}, io.EOF}, "A", false, ""},
		{"ends early", &cutReader{[]string{chunk("Hal"), "data: {\"choi"}, io.EOF}, "Hal", true, ""},
		{"connection broken", &cutReader{[]string{chunk("Half")}, errors.New("network error")}, "Half", true, ""},
		{"error event mid-stream", &cutReader{[]string{chunk("Par"), `data: {"error":{"message":"overloaded","code":"server_error"}}` + "\n\n"}, io.EOF}, "Par", false, "overloaded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s chatSnapshot
			updates := 0
			readChatStream(tt.r, time.Now, func(f func(*chatSnapshot)) { f(&s); updates++ })
			if s.content != tt.wantContent {
				t.Errorf("got content %q; want %q", s.content, tt.wantContent)
			}
			if (s.cut != "") != tt.wantCut {
				t.Errorf("got cut %q; want cut %v", s.cut, tt.wantCut)
			}
			if got := ""; s.apiErr != nil {
				got = s.apiErr.Message
				if got != tt.wantErr {
					t.Errorf("got error %q; want %q", got, tt.wantErr)
				}
			} else if tt.wantErr != "" {
				t.Errorf("got no error; want %q", tt.wantErr)
			}
			if !s.over || updates < 2 {
				t.Errorf("got over=%v after %d updates; want over after several", s.over, updates)
			}
		})
	}
}

func TestReadChatBody(t *testing.T) {
	var s chatSnapshot
	readChatBody(401, "application/json", strings.NewReader(`{"error":{"message":"Invalid API key","type":"authentication_error"}}`), func(f func(*chatSnapshot)) { f(&s) })
	if s.apiErr == nil || s.apiErr.Message != "Invalid API key" || !s.over {
		t.Errorf("got %+v; want the API's message, over", s)
	}
	s = chatSnapshot{}
	readChatBody(200, "application/json", strings.NewReader(`{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}]}`), func(f func(*chatSnapshot)) { f(&s) })
	if s.content != "Hi" || s.finish != "stop" {
		t.Errorf("got %+v; want the whole answer", s)
	}
}

// TestReadProxyError: the proxy's own error body gives its sentence and what to check; a body
// that is not its JSON is shown as it is.
func TestReadProxyError(t *testing.T) {
	for _, tc := range []struct{ body, msg, check string }{
		{`{"error":"chat: operation x is not allowed here","api":"chat","check":"apis.chat.allow in the configuration","source":"loupe proxy"}`,
			"chat: operation x is not allowed here", "apis.chat.allow in the configuration"},
		{"plain text", "plain text", ""},
	} {
		var s chatSnapshot
		readProxyError(403, strings.NewReader(tc.body), func(f func(*chatSnapshot)) { f(&s) })
		if s.apiErr == nil || s.apiErr.Message != tc.msg || s.proxy == nil || s.proxy.Check != tc.check || !s.over {
			t.Errorf("%s: got %+v %+v over %v; want %q, check %q", tc.body, s.apiErr, s.proxy, s.over, tc.msg, tc.check)
		}
	}
}
