package chat

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestErrors(t *testing.T) {
	h := New(Options{Key: testKey})
	tests := []struct {
		name      string
		key       string
		body      any
		status    int
		param     string
		code      string
		inMessage string
	}{
		{"no key", "", userBody("hi", nil), 401, "", "", "didn't provide an API key"},
		{"wrong key", "sk-wrong", userBody("hi", nil), 401, "", "invalid_api_key", "Incorrect API key provided"},
		{"bad JSON", testKey, `{"model":`, 400, "", "", "could not parse the JSON body"},
		{"wrong type", testKey, `{"model":"v0-1.0-md","messages":"hi"}`, 400, "messages", "invalid_type", "Invalid type for 'messages': expected an array of objects, but got a string instead."},
		{"wrong field type", testKey, `{"model":"v0-1.0-md","stream":"yes","messages":[]}`, 400, "stream", "invalid_type", "expected a boolean, but got a string"},
		{"n above 1", testKey, userBody("hi", map[string]any{"n": 2}), 400, "n", "invalid_value", "n must be 1"},
		{"no messages", testKey, map[string]any{"model": ModelID}, 400, "messages", "", "Missing required parameter: 'messages'"},
		{"empty messages", testKey, map[string]any{"model": ModelID, "messages": []any{}}, 400, "messages", "empty_array", "empty array"},
		{"bad role", testKey, map[string]any{"model": ModelID, "messages": []any{map[string]any{"role": "robot", "content": "hi"}}},
			400, "messages[0].role", "invalid_value", "'robot'"},
		{"no content", testKey, map[string]any{"model": ModelID, "messages": []any{map[string]any{"role": "user"}}},
			400, "messages[0].content", "", "messages[0].content"},
		{"content number", testKey, map[string]any{"model": ModelID, "messages": []any{map[string]any{"role": "user", "content": 3}}},
			400, "messages[0].content", "invalid_type", "expected one of a string or array of objects, but got an integer instead."},
		{"a body that is an array", testKey, `[]`, 400, "", "invalid_type", "Invalid type for the request body: expected an object, but got an array instead."},
		{"a message that is a number", testKey, `{"model":"v0-1.0-md","messages":[{"role":"user","content":"a"},5.5]}`, 400, "messages[1]", "invalid_type",
			"Invalid type for 'messages[1]': expected an object, but got a decimal number instead."},
		{"a message that is null", testKey, `{"model":"v0-1.0-md","messages":[{"role":"user","content":"a"},null]}`, 400, "messages[1]", "invalid_type",
			"Invalid type for 'messages[1]': expected an object, but got null instead."},
		{"a body that is null", testKey, `null`, 400, "", "invalid_type", "Invalid type for the request body: expected an object, but got null instead."},
		{"tool_calls that is an object", testKey, `{"model":"v0-1.0-md","messages":[{"role":"assistant","tool_calls":{"id":"x"}}]}`, 400, "messages[0].tool_calls", "invalid_type",
			"Invalid type for 'messages[0].tool_calls': expected an array of objects, but got an object instead."},
		{"a role that is a number", testKey, `{"model":"v0-1.0-md","messages":[{"role":7,"content":"a"}]}`, 400, "messages[0].role", "invalid_type",
			"Invalid type for 'messages[0].role': expected a string, but got an integer instead."},
		{"a content block that is a number", testKey, `{"model":"v0-1.0-md","messages":[{"role":"user","content":[1]}]}`, 400, "messages[0].content[0]", "invalid_type",
			"Invalid type for 'messages[0].content[0]': expected an object, but got an integer instead."},
		{"a text that is not a string", testKey, `{"model":"v0-1.0-md","messages":[{"role":"user","content":[{"type":"text","text":5}]}]}`, 400, "messages[0].content[0].text", "invalid_type",
			"Invalid type for 'messages[0].content[0].text': expected a string, but got an integer instead."},
		{"a text that is an object", testKey, `{"model":"v0-1.0-md","messages":[{"role":"user","content":[{"type":"text","text":{"a":1}}]}]}`, 400, "messages[0].content[0].text", "invalid_type",
			"expected a string, but got an object instead."},
		{"an image_url that is a number", testKey, `{"model":"v0-1.0-md","messages":[{"role":"user","content":[{"type":"image_url","image_url":5}]}]}`, 400, "messages[0].content[0].image_url", "invalid_type",
			"Invalid type for 'messages[0].content[0].image_url': expected an object, but got an integer instead."},
		{"a top-level field of the wrong number type", testKey, `{"model":"v0-1.0-md","messages":[{"role":"user","content":"a"}],"max_tokens":1.5}`, 400, "max_tokens", "invalid_type",
			"Invalid type for 'max_tokens': expected an integer, but got a decimal number instead."},
		{"a tool message answering no call", testKey, map[string]any{"model": ModelID, "messages": []any{map[string]any{"role": "user", "content": "hi"},
			map[string]any{"role": "tool", "tool_call_id": "call_nope", "content": "42"}}},
			400, "messages.[1].role", "", "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."},
		{"a tool message with an unknown tool_call_id", testKey, map[string]any{"model": ModelID, "messages": []any{map[string]any{"role": "user", "content": "weather?"},
			map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"id": "call_1", "type": "function", "function": map[string]any{"name": "w", "arguments": "{}"}}}},
			map[string]any{"role": "tool", "tool_call_id": "call_1", "content": "21"},
			map[string]any{"role": "tool", "tool_call_id": "call_2", "content": "22"}}},
			400, "messages.[3].role", "", "must be a response to a preceeding message with 'tool_calls'"},
		{"a tool message after the turn moved on", testKey, map[string]any{"model": ModelID, "messages": []any{map[string]any{"role": "user", "content": "weather?"},
			map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"id": "call_1", "type": "function", "function": map[string]any{"name": "w", "arguments": "{}"}}}},
			map[string]any{"role": "user", "content": "and?"},
			map[string]any{"role": "tool", "tool_call_id": "call_1", "content": "21"}}},
			400, "messages.[3].role", "", "must be a response to a preceeding message with 'tool_calls'"},
		{"unknown block", testKey, map[string]any{"model": ModelID, "messages": []any{map[string]any{"role": "user",
			"content": []any{map[string]any{"type": "audio"}}}}}, 400, "messages[0].content[0].type", "invalid_value", "'audio'"},
		{"tool without id", testKey, map[string]any{"model": ModelID, "messages": []any{map[string]any{"role": "tool", "content": "42"}}},
			400, "messages[0].tool_call_id", "", "tool_call_id"},
		{"no model", testKey, map[string]any{"messages": []any{map[string]any{"role": "user", "content": "hi"}}},
			400, "model", "", "v0-1.0-md"},
		{"wrong model", testKey, map[string]any{"model": "gpt-4o", "messages": []any{map[string]any{"role": "user", "content": "hi"}}},
			404, "model", "model_not_found", "`gpt-4o` does not exist"},
		{"max_tokens zero", testKey, userBody("hi", map[string]any{"max_tokens": 0}), 400, "max_tokens", "integer_below_min_value", "got 0"},
		{"tool_choice without tools", testKey, userBody("hi", map[string]any{"tool_choice": "required"}), 400, "tool_choice", "", "only allowed when 'tools'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := post(t, h, tt.key, tt.body)
			if rec.Code != tt.status {
				t.Fatalf("status = %d (%s); want %d", rec.Code, rec.Body, tt.status)
			}
			if got := rec.Header().Get("Content-Type"); got != "application/json" {
				t.Errorf("Content-Type = %q; want application/json", got)
			}
			e := errorOf(t, rec)
			if e.Type != "invalid_request_error" {
				t.Errorf("type = %q; want invalid_request_error", e.Type)
			}
			if got := deref(e.Param); got != tt.param {
				t.Errorf("param = %q; want %q", got, tt.param)
			}
			if got := deref(e.Code); got != tt.code {
				t.Errorf("code = %q; want %q", got, tt.code)
			}
			if !strings.Contains(strings.ToLower(e.Message), strings.ToLower(tt.inMessage)) {
				t.Errorf("message = %q; want it to contain %q", e.Message, tt.inMessage)
			}
			for _, goText := range []string{"Go value", "Go struct", "chat.", "json:", "unmarshal"} {
				if strings.Contains(e.Message, goText) {
					t.Errorf("message %q holds %q: a Go type or decoder's words", e.Message, goText)
				}
			}
			if strings.Contains(e.Message, "sk-wrong") {
				t.Errorf("message %q echoes the key", e.Message)
			}
		})
	}
}

// deref returns *s or "".
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func TestRoutes(t *testing.T) {
	h := New(Options{Key: testKey})
	tests := []struct {
		method, path string
		status       int
		allow        string
	}{
		{http.MethodGet, "/v1/chat/completions", 405, "POST"},
		{http.MethodPost, "/v1/completions", 404, ""},
		{http.MethodGet, "/", 404, ""},
		{http.MethodGet, "v1/chat/completions", 405, "POST"}, // mounted with StripPrefix("/sandbox/chat/")
	}
	for _, tt := range tests {
		req := httptest.NewRequest(tt.method, "/", nil)
		req.URL.Path = tt.path
		req.Header.Set("Authorization", "Bearer "+testKey)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.status {
			t.Errorf("%s %s: got status %d; want %d", tt.method, tt.path, rec.Code, tt.status)
		}
		if got := rec.Header().Get("Allow"); got != tt.allow {
			t.Errorf("%s %s: got Allow %q; want %q", tt.method, tt.path, got, tt.allow)
		}
		_ = errorOf(t, rec)
	}
}

func TestAnyKeyWhenUnset(t *testing.T) {
	h := New(Options{})
	if got := post(t, h, "anything", userBody("hi", nil)).Code; got != 200 {
		t.Errorf("got status %d with any key; want 200", got)
	}
	if got := post(t, h, "", userBody("hi", nil)).Code; got != 401 {
		t.Errorf("got status %d without a key; want 401", got)
	}
}

func TestCompletionShape(t *testing.T) {
	at := time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)
	h := New(Options{Key: testKey, Now: func() time.Time { return at }})
	d := complete(t, h, userBody("Build a todo list for my book club", nil))
	if !strings.HasPrefix(d.ID, "chatcmpl-") {
		t.Errorf("id = %q; want prefix chatcmpl-", d.ID)
	}
	if d.Object != "chat.completion" || d.Model != ModelID || d.Created != at.Unix() {
		t.Errorf("got object %q, model %q, created %d; want chat.completion, %s, %d", d.Object, d.Model, d.Created, ModelID, at.Unix())
	}
	c := d.Choices[0]
	if c.Index != 0 || c.Message.Role != "assistant" || c.FinishReason != "stop" {
		t.Errorf("got index %d, role %q, finish %q; want 0, assistant, stop", c.Index, c.Message.Role, c.FinishReason)
	}
	text := d.content()
	for _, want := range []string{"**Plan**", "```html\n<!doctype html>", "</html>\n```", "Book Club"} {
		if !strings.Contains(text, want) {
			t.Errorf("content lacks %q", want)
		}
	}
	if got, want := d.Usage.CompletionTokens, countTokens(text); got != want {
		t.Errorf("completion_tokens = %d; want %d (tokens of the content)", got, want)
	}
	if d.Usage.PromptTokens <= 0 || d.Usage.TotalTokens != d.Usage.PromptTokens+d.Usage.CompletionTokens {
		t.Errorf("usage = %+v; want positive prompt tokens and total = prompt + completion", d.Usage)
	}
}

func TestDeterministic(t *testing.T) {
	h := New(Options{Key: testKey})
	for _, prompt := range []string{"hello", "a dashboard for coffee sales", "a photo gallery", "Build a counter"} {
		a := complete(t, h, userBody(prompt, nil))
		b := complete(t, New(Options{Key: testKey}), userBody(prompt, nil))
		if a.content() != b.content() {
			t.Errorf("%q: two answers differ", prompt)
		}
		if a.ID == b.ID && h != nil {
			// ids come from a per-handler counter, so two handlers may agree;
			// two calls on one handler must not.
			c := complete(t, h, userBody(prompt, nil))
			if c.ID == a.ID {
				t.Errorf("%q: two responses of one handler share id %q", prompt, a.ID)
			}
		}
	}
	x := complete(t, h, userBody("a table of planets", nil)).content()
	y := complete(t, h, userBody("a table of comets", nil)).content()
	if x == y {
		t.Error("different prompts got the same answer")
	}
}

func TestMaxTokens(t *testing.T) {
	h := New(Options{Key: testKey})
	tests := []struct {
		name   string
		extra  map[string]any
		tokens int
	}{
		{"max_tokens", map[string]any{"max_tokens": 50}, 50},
		{"max_completion_tokens wins", map[string]any{"max_tokens": 80, "max_completion_tokens": 30}, 30},
	}
	for _, tt := range tests {
		d := complete(t, h, userBody("Build a counter", tt.extra))
		if got := d.Choices[0].FinishReason; got != "length" {
			t.Errorf("%s: finish_reason = %q; want length", tt.name, got)
		}
		if got := d.Usage.CompletionTokens; got != tt.tokens {
			t.Errorf("%s: completion_tokens = %d; want %d", tt.name, got, tt.tokens)
		}
		if got := countTokens(d.content()); got != tt.tokens {
			t.Errorf("%s: content has %d tokens; want %d", tt.name, got, tt.tokens)
		}
	}
	small := New(Options{Key: testKey, MaxOutputTokens: 20})
	d := complete(t, small, userBody("Build a counter", map[string]any{"max_tokens": 1000}))
	if got := d.Usage.CompletionTokens; got != 20 {
		t.Errorf("Options.MaxOutputTokens 20 with max_tokens 1000: completion_tokens = %d; want 20", got)
	}
}

func TestContextWindow(t *testing.T) {
	h := New(Options{Key: testKey})
	long := strings.Repeat("word ", 130000)
	rec := post(t, h, testKey, userBody(long, nil))
	if rec.Code != 400 {
		t.Fatalf("status = %d; want 400", rec.Code)
	}
	e := errorOf(t, rec)
	if deref(e.Code) != "context_length_exceeded" || !strings.Contains(e.Message, "maximum context length is 128000 tokens. However, your messages resulted in 130") {
		t.Errorf("got code %q, message %q; want context_length_exceeded and the token counts", deref(e.Code), e.Message)
	}

	small := New(Options{Key: testKey, ContextWindow: 100})
	rec = post(t, small, testKey, userBody("Build a counter", map[string]any{"max_tokens": 95}))
	if e := errorOf(t, rec); rec.Code != 400 || !strings.Contains(e.Message, "you requested") {
		t.Errorf("prompt + max_tokens over the window: got %d %q; want 400 naming what was requested", rec.Code, e.Message)
	}
	d := complete(t, small, userBody("Build a counter", nil))
	if d.Choices[0].FinishReason != "length" || d.Usage.TotalTokens != 100 {
		t.Errorf("without max_tokens: got finish %q, usage %+v; want length and a full window of 100", d.Choices[0].FinishReason, d.Usage)
	}
}

func TestPromptTokensGrow(t *testing.T) {
	h := New(Options{Key: testKey})
	a := complete(t, h, userBody("hi", nil)).Usage.PromptTokens
	b := complete(t, h, userBody("hi there, please build me a small counter app", nil)).Usage.PromptTokens
	if a >= b {
		t.Errorf("prompt_tokens: short %d, long %d; want short < long", a, b)
	}
}
