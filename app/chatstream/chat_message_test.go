package chatstream

import (
	"strings"
	"testing"

	"loupe/app/internal/apptest"
	"loupe/app/markdown"
	"loupe/app/sse"
)

// answerWith builds a finished answer from Markdown text.
func answerWith(text string) *Answer {
	a := &Answer{md: markdown.NewStream(Markdown()), Answered: map[string]bool{}}
	a.md.Write(text)
	a.md.Close()
	return a
}

func renderMessage(t *testing.T, turn *Turn) string {
	t.Helper()
	return apptest.RenderUI(t, NewMessage(turn, 0, 0))
}

func TestChatMessageRendersMarkdownSafely(t *testing.T) {
	a := answerWith("Here is **the app** <img src=x onerror=alert(1)>\n\n```html\n<script>alert(1)</script>\n```\n\nDone.\n")
	out := renderMessage(t, &Turn{Role: "assistant", Answer: a})
	tests := []struct {
		name      string
		got, want bool
	}{
		{"an assistant message", strings.Contains(out, `chat-msg assistant`), true},
		{"rendered Markdown", strings.Contains(out, "<strong>the app</strong>"), true},
		{"no script element", apptest.HasElement(out, "script"), false},
		{"no img element", apptest.HasElement(out, "img"), false},
		{"the code is shown as text", strings.Contains(out, "&lt;script&gt;alert(1)&lt;/script&gt;"), true},
		{"a copy button", strings.Contains(out, "copy-code"), true},
		{"a preview button for HTML", strings.Contains(out, "preview-code"), true},
		{"no error", strings.Contains(out, "chat-error"), false},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v; want %v\n%s", tt.name, tt.got, tt.want, out)
		}
	}
}

func TestChatMessageErrors(t *testing.T) {
	tests := []struct {
		name string
		set  func(a *Answer)
		want []string
	}{
		{"API error with status and code", func(a *Answer) {
			a.Status, a.apiErr = 400, &sse.APIError{Message: "too long", Code: "context_length_exceeded"}
		}, []string{"HTTP 400", "context_length_exceeded", "too long", "context window"}},
		{"401", func(a *Answer) { a.Status, a.apiErr = 401, &sse.APIError{Message: "Invalid API key"} }, []string{"HTTP 401", "Invalid API key", "never holds one"}},
		{"cut stream", func(a *Answer) { a.Cut, a.chunks = "the connection broke: network error", 12 }, []string{"Stream cut", "after 12 tokens", "kept above"}},
		{"network failure", func(a *Answer) { a.NetErr = "Failed to fetch" }, []string{"No answer", "Failed to fetch"}},
		{"Loupe's proxy ended the stream", func(a *Answer) {
			a.Status, a.apiErr = 200, &sse.APIError{Message: "chat: the API's stream broke before its end (connection reset); Loupe closed it", Source: "loupe proxy", Check: "that the API is up"}
		}, []string{"Loupe&#39;s proxy ended the stream", "stream broke before its end (connection reset)", "kept above", "Check: that the API is up."}},
		{"a refusal of Loupe's proxy is not the API's", func(a *Answer) {
			a.Status, a.apiErr, a.proxy = 403, &sse.APIError{Message: "chat: operation createChatCompletion is not allowed here"}, &proxyRefusal{Check: "apis.chat.allow in the configuration"}
		}, []string{"Refused by Loupe", "proxy, not by the API (HTTP 403)", "is not allowed here", "never reached the API", "Check: apis.chat.allow"}},
		{"the proxy could not reach the API", func(a *Answer) {
			a.Status, a.apiErr, a.proxy = 502, &sse.APIError{Message: "chat: could not get an answer from https://api.v0.dev (connection refused)"}, &proxyRefusal{}
		}, []string{"could not get an answer from the API (HTTP 502)", "connection refused"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := answerWith("partial")
			tt.set(a)
			out := renderMessage(t, &Turn{Role: "assistant", Answer: a})
			for _, want := range tt.want {
				if !strings.Contains(out, want) {
					t.Errorf("got no %q in\n%s", want, out)
				}
			}
		})
	}
}

func TestChatMessageUserAndTool(t *testing.T) {
	out := renderMessage(t, &Turn{Role: "user", Text: "look <b>here</b>", Image: &Image{Name: "a.png", Mime: "image/png", Size: 2048, DataURL: "data:image/png;base64,AAAA"}})
	if !strings.Contains(out, "look &lt;b&gt;here&lt;/b&gt;") || !strings.Contains(out, "chat-thumb") || !strings.Contains(out, "a.png") {
		t.Errorf("got %s; want the text as text and the thumbnail", out)
	}
	out = renderMessage(t, &Turn{Role: "tool", Text: `{"t":1}`, ToolName: "get_weather", ToolCallID: "call_1"})
	if !strings.Contains(out, "get_weather") || !strings.Contains(out, "call_1") {
		t.Errorf("got %s; want the tool's name and call id", out)
	}
}

func TestToolCallCard(t *testing.T) {
	a := answerWith("")
	c := sse.ToolCall{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}
	out := apptest.RenderUI(t, newToolCallCard(c, a, true))
	for _, want := range []string{"tool-call-card", "get_weather", "call_1", "&#34;city&#34;: &#34;Paris&#34;", "tool-result-input", "tool-result-send"} {
		if !strings.Contains(out, want) && !strings.Contains(out, strings.ReplaceAll(want, "&#34;", `"`)) {
			t.Errorf("got no %q in\n%s", want, out)
		}
	}
	out = apptest.RenderUI(t, newToolCallCard(c, a, false))
	if strings.Contains(out, "tool-result-input") {
		t.Errorf("an answered call still offers a result field:\n%s", out)
	}
}
