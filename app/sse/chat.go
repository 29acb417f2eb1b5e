package sse

import (
	"encoding/json"
	"errors"
	"strings"
)

// Done is the data of the event that ends a chat completion stream.
const Done = "[DONE]"

// ToolCall is one tool call of an answer, assembled from its deltas.
type ToolCall struct {
	// Index is the position the stream gave the call; deltas with the same index extend it.
	Index int
	// ID identifies the call; a tool result answers it with tool_call_id.
	ID string
	// Type is "function".
	Type string
	// Name is the function's name.
	Name string
	// Arguments is the JSON text of the arguments, as far as it arrived.
	Arguments string
}

// Usage counts the tokens of a completion.
type Usage struct {
	// PromptTokens counts the conversation sent.
	PromptTokens int `json:"prompt_tokens"`
	// CompletionTokens counts the answer.
	CompletionTokens int `json:"completion_tokens"`
	// TotalTokens is their sum.
	TotalTokens int `json:"total_tokens"`
}

// APIError is the error object of an OpenAI-style error body or error event.
type APIError struct {
	// Message is the API's explanation, meant for people.
	Message string `json:"message"`
	// Type is the error's kind, for example invalid_request_error (or a Google status).
	Type string `json:"type"`
	// Param names the request field at fault, when the API says.
	Param string `json:"param"`
	// Code is the error code as text (the wire gives a string, a number or null).
	Code string `json:"-"`
	// Source is who wrote an error event: "loupe proxy" when Loupe's proxy ended the stream
	// (its upstream broke or went silent), "" for the API.
	Source string `json:"-"`
	// Check is what Loupe's proxy says to look at, with Source.
	Check string `json:"-"`
}

// Error implements error.
func (e *APIError) Error() string {
	if e.Message == "" {
		return "error " + e.Code
	}
	return e.Message
}

// Chat folds the events of a chat completion stream (or a whole completion body) into the
// answer so far: role, content, tool calls, finish reason, usage, error and end of stream.
// The zero value is ready to use. Chat follows choice 0 only.
type Chat struct {
	// ID and Model are those of the completion.
	ID, Model string
	// Role is the role of the answer, "assistant".
	Role string
	// FinishReason is empty until the final chunk: stop, length, tool_calls, content_filter.
	FinishReason string
	// Usage is the token count, when the stream sent one.
	Usage *Usage
	// Err is the error the stream or body reported, if any.
	Err *APIError
	// Done is true once the [DONE] event arrived.
	Done bool
	// Chunks counts the chunks received; ContentChunks those that carried content, which is
	// about one token each.
	Chunks, ContentChunks int

	content   strings.Builder
	toolCalls []ToolCall
}

// Content returns the text of the answer so far. It does not copy the text.
func (c *Chat) Content() string { return c.content.String() }

// ToolCalls returns the tool calls so far, in index order.
func (c *Chat) ToolCalls() []ToolCall { return c.toolCalls }

// chunk is the wire shape of a chat.completion.chunk and of a chat.completion.
type chunk struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Choices []struct {
		Index        int          `json:"index"`
		Delta        *wireMessage `json:"delta"`
		Message      *wireMessage `json:"message"`
		FinishReason *string      `json:"finish_reason"`
	} `json:"choices"`
	Usage *Usage          `json:"usage"`
	Error json.RawMessage `json:"error"`
	// Check and Source come with an error event of Loupe's proxy.
	Check  string `json:"check"`
	Source string `json:"source"`
}

type wireMessage struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	ToolCalls []struct {
		Index    *int   `json:"index"`
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// Add folds one event of a stream. It returns an error when the event's data is not JSON;
// an error reported by the API is kept in Err instead.
func (c *Chat) Add(ev Event) error {
	data := strings.TrimSpace(ev.Data)
	if strings.HasPrefix(data, Done) {
		c.Done = true
		return nil
	}
	return c.fold([]byte(data))
}

// AddCompletion folds a whole chat.completion body (the answer when stream is false) or an
// error body.
func (c *Chat) AddCompletion(body []byte) error { return c.fold(body) }

func (c *Chat) fold(data []byte) error {
	var ck chunk
	if err := json.Unmarshal(data, &ck); err != nil {
		return errors.New("not a chat completion chunk: " + err.Error())
	}
	c.Chunks++
	if len(ck.Error) > 0 && string(ck.Error) != "null" {
		c.Err = decodeError(ck.Error)
		c.Err.Source, c.Err.Check = ck.Source, ck.Check
		return nil
	}
	if ck.ID != "" {
		c.ID = ck.ID
	}
	if ck.Model != "" {
		c.Model = ck.Model
	}
	if ck.Usage != nil {
		c.Usage = ck.Usage
	}
	for _, ch := range ck.Choices {
		if ch.Index != 0 {
			continue
		}
		m := ch.Delta
		if m == nil {
			m = ch.Message
		}
		if m != nil {
			c.addMessage(m)
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			c.FinishReason = *ch.FinishReason
		}
	}
	return nil
}

func (c *Chat) addMessage(m *wireMessage) {
	if m.Role != "" {
		c.Role = m.Role
	}
	if len(m.Content) > 0 {
		var s string
		if json.Unmarshal(m.Content, &s) == nil && s != "" {
			c.content.WriteString(s)
			c.ContentChunks++
		}
	}
	for i, tc := range m.ToolCalls {
		idx := i
		if tc.Index != nil {
			idx = *tc.Index
		}
		call := c.toolCall(idx)
		if tc.ID != "" {
			call.ID = tc.ID
		}
		if tc.Type != "" {
			call.Type = tc.Type
		}
		if tc.Function.Name != "" {
			call.Name = tc.Function.Name
		}
		call.Arguments += tc.Function.Arguments
	}
}

// toolCall returns the call with the given index, adding it when it is new.
func (c *Chat) toolCall(index int) *ToolCall {
	for i := range c.toolCalls {
		if c.toolCalls[i].Index == index {
			return &c.toolCalls[i]
		}
	}
	c.toolCalls = append(c.toolCalls, ToolCall{Index: index})
	return &c.toolCalls[len(c.toolCalls)-1]
}

// ParseError reads an error body: {"error": {...}}, {"error": "text"}, {"message": "..."} or
// plain text. It returns nil for an empty body.
func ParseError(body []byte) *APIError {
	text := strings.TrimSpace(string(body))
	if text == "" {
		return nil
	}
	var wrapped struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &wrapped) == nil && len(wrapped.Error) > 0 {
		return decodeError(wrapped.Error)
	}
	var bare struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &bare) == nil && bare.Message != "" {
		return &APIError{Message: bare.Message}
	}
	return &APIError{Message: text}
}

// decodeError reads an error object or a plain error string.
func decodeError(raw json.RawMessage) *APIError {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return &APIError{Message: s}
	}
	var e struct {
		APIError
		Code   json.RawMessage `json:"code"`
		Status string          `json:"status"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return &APIError{Message: string(raw)}
	}
	out := e.APIError
	if code := strings.Trim(string(e.Code), `"`); code != "" && code != "null" {
		out.Code = code
	}
	if out.Type == "" {
		out.Type = e.Status
	}
	return &out
}
