package chat

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// testKey is the key the tests' handlers accept.
const testKey = "sk-test-key"

// post sends body (a string or a value to marshal) to h with key (none if
// "") and returns the recorder.
func post(t *testing.T, h http.Handler, key string, body any) *httptest.ResponseRecorder {
	t.Helper()
	var text string
	switch b := body.(type) {
	case string:
		text = b
	default:
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("marshal body: %v", err)
		}
		text = string(data)
	}
	req := httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader(text))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// userBody is a request with one user message.
func userBody(text string, extra map[string]any) map[string]any {
	body := map[string]any{
		"model":    ModelID,
		"messages": []any{map[string]any{"role": "user", "content": text}},
	}
	for k, v := range extra {
		body[k] = v
	}
	return body
}

// decoded is the part of a chat.completion the tests read.
type decoded struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	Model   string `json:"model"`
	Choices []struct {
		Index   int `json:"index"`
		Message struct {
			Role      string  `json:"role"`
			Content   *string `json:"content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage usage `json:"usage"`
}

// complete posts body, expects 200 and decodes the completion.
func complete(t *testing.T, h http.Handler, body any) decoded {
	t.Helper()
	rec := post(t, h, testKey, body)
	if rec.Code != http.StatusOK {
		t.Fatalf("status = %d, body %s; want 200", rec.Code, rec.Body)
	}
	var d decoded
	if err := json.Unmarshal(rec.Body.Bytes(), &d); err != nil {
		t.Fatalf("decode completion: %v", err)
	}
	if len(d.Choices) != 1 {
		t.Fatalf("got %d choices; want 1", len(d.Choices))
	}
	return d
}

// content returns the completion's text.
func (d decoded) content() string {
	if d.Choices[0].Message.Content == nil {
		return ""
	}
	return *d.Choices[0].Message.Content
}

// errorOf decodes an OpenAI error body.
func errorOf(t *testing.T, rec *httptest.ResponseRecorder) errorObject {
	t.Helper()
	var body errorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("decode error body %q: %v", rec.Body, err)
	}
	return body.Error
}

// sseData returns the data: payloads of an event stream, in order.
func sseData(t *testing.T, stream string) []string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(strings.NewReader(stream))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, ":") {
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			t.Fatalf("line %q is not a data: line", line)
		}
		out = append(out, data)
	}
	return out
}

// chunk is the part of a chat.completion.chunk the tests read.
type chunk struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Model   string `json:"model"`
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Role      string  `json:"role"`
			Content   *string `json:"content"`
			ToolCalls []struct {
				Index    int     `json:"index"`
				ID       *string `json:"id"`
				Type     *string `json:"type"`
				Function struct {
					Name      *string `json:"name"`
					Arguments *string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *usage `json:"usage"`
}

// chunksOf decodes every chunk of a stream and checks it ends with [DONE].
func chunksOf(t *testing.T, stream string) []chunk {
	t.Helper()
	data := sseData(t, stream)
	if len(data) == 0 || data[len(data)-1] != "[DONE]" {
		t.Fatalf("stream does not end with data: [DONE]: %q", tail(stream, 200))
	}
	chunks := make([]chunk, len(data)-1)
	for i, d := range data[:len(data)-1] {
		if err := json.Unmarshal([]byte(d), &chunks[i]); err != nil {
			t.Fatalf("chunk %d %q: %v", i, d, err)
		}
	}
	return chunks
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
