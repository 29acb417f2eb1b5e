package sse

import (
	"reflect"
	"strings"
	"testing"
)

// foldStream parses a whole stream and folds every event.
func foldStream(t *testing.T, stream string) *Chat {
	t.Helper()
	var c Chat
	for _, ev := range parseAll(stream) {
		if err := c.Add(ev); err != nil {
			t.Fatalf("Add(%q): %v", ev.Data, err)
		}
	}
	return &c
}

func TestChatContent(t *testing.T) {
	stream := `data: {"id":"c1","object":"chat.completion.chunk","model":"v0-1.0-md","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","model":"v0-1.0-md","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","model":"v0-1.0-md","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","model":"v0-1.0-md","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}

data: {"id":"c1","object":"chat.completion.chunk","model":"v0-1.0-md","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}

data: [DONE]

`
	c := foldStream(t, stream)
	tests := []struct {
		name      string
		got, want any
	}{
		{"content", c.Content(), "Hello"},
		{"role", c.Role, "assistant"},
		{"id", c.ID, "c1"},
		{"model", c.Model, "v0-1.0-md"},
		{"finish reason", c.FinishReason, "stop"},
		{"usage", *c.Usage, Usage{PromptTokens: 5, CompletionTokens: 2, TotalTokens: 7}},
		{"done", c.Done, true},
		{"chunks", c.Chunks, 5},
		{"content chunks", c.ContentChunks, 2},
		{"no error", c.Err == nil, true},
	}
	for _, tt := range tests {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s: got %v; want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestChatToolCalls(t *testing.T) {
	stream := `data: {"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"now","arguments":"{}"}}]}}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]}}]}

data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]
`
	c := foldStream(t, stream)
	got := c.ToolCalls()
	want := []ToolCall{
		{Index: 0, ID: "call_1", Type: "function", Name: "get_weather", Arguments: `{"city":"Paris"}`},
		{Index: 1, ID: "call_2", Type: "function", Name: "now", Arguments: `{}`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v; want %+v", got, want)
	}
	if c.FinishReason != "tool_calls" {
		t.Errorf("got finish reason %q; want tool_calls", c.FinishReason)
	}
}

func TestChatErrors(t *testing.T) {
	tests := []struct {
		name, stream string
		want         APIError
	}{
		{"OpenAI error event",
			`data: {"error":{"message":"context too long","type":"invalid_request_error","param":null,"code":"context_length_exceeded"}}` + "\n\n",
			APIError{Message: "context too long", Type: "invalid_request_error", Code: "context_length_exceeded"}},
		{"numeric code", `data: {"error":{"message":"bad key","code":401}}` + "\n\n",
			APIError{Message: "bad key", Code: "401"}},
		{"error string", `data: {"error":"overloaded"}` + "\n\n", APIError{Message: "overloaded"}},
		{"Google style status", `data: {"error":{"code":400,"message":"bad","status":"INVALID_ARGUMENT"}}` + "\n\n",
			APIError{Message: "bad", Type: "INVALID_ARGUMENT", Code: "400"}},
		{"Loupe's proxy ends a broken stream", "event: error\ndata: {\"error\":\"chat: the API's stream broke before its end (connection reset); Loupe closed it\",\"check\":\"that the API is up\",\"source\":\"loupe proxy\"}\n\n",
			APIError{Message: "chat: the API's stream broke before its end (connection reset); Loupe closed it", Source: "loupe proxy", Check: "that the API is up"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := foldStream(t, tt.stream)
			if c.Err == nil {
				t.Fatalf("got no error; want %+v", tt.want)
			}
			if *c.Err != tt.want {
				t.Errorf("got %+v; want %+v", *c.Err, tt.want)
			}
		})
	}
}

func TestChatRejectsNonJSON(t *testing.T) {
	var c Chat
	if err := c.Add(Event{Data: "not json"}); err == nil {
		t.Error("got no error; want one")
	}
}

func TestChatCompletionBody(t *testing.T) {
	body := `{"id":"c2","object":"chat.completion","model":"v0-1.0-md","choices":[{"index":0,"message":{"role":"assistant","content":"Hi there"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`
	var c Chat
	if err := c.AddCompletion([]byte(body)); err != nil {
		t.Fatal(err)
	}
	if got, want := c.Content(), "Hi there"; got != want {
		t.Errorf("got %q; want %q", got, want)
	}
	if got, want := c.Usage.TotalTokens, 5; got != want {
		t.Errorf("got %d total tokens; want %d", got, want)
	}
}

func TestParseError(t *testing.T) {
	tests := []struct {
		body string
		want *APIError
	}{
		{`{"error":{"message":"Invalid API key","type":"authentication_error"}}`, &APIError{Message: "Invalid API key", Type: "authentication_error"}},
		{`{"message":"nope"}`, &APIError{Message: "nope"}},
		{"Bad Gateway\n", &APIError{Message: "Bad Gateway"}},
		{"  ", nil},
	}
	for _, tt := range tests {
		got := ParseError([]byte(tt.body))
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseError(%q): got %+v; want %+v", tt.body, got, tt.want)
		}
	}
}

func TestChatContentAccumulatesManyChunks(t *testing.T) {
	var c Chat
	for range 1000 {
		_ = c.Add(Event{Data: `{"choices":[{"index":0,"delta":{"content":"ab"}}]}`})
	}
	if got, want := c.Content(), strings.Repeat("ab", 1000); got != want {
		t.Errorf("got %d bytes; want %d", len(got), len(want))
	}
}
