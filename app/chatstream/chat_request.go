package chatstream

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"loupe/app/catalog"
	"loupe/app/sse"
)

// defaultChatModel is the model when the catalog names none.
const defaultChatModel = "v0-1.0-md"

// Image is an image attached to a user message, read from a file as a data URL.
type Image struct {
	Name, Mime string // the file's name and media type
	Size       int    // the file's size in bytes
	DataURL    string // the image as the request sends it
}

// Settings are the conversation-wide fields of a request.
type Settings struct {
	Model, System string // the model to ask and the system prompt
	Stream        bool   // ask for the answer as Server-Sent Events
	Tools         string // JSON array of tool definitions; empty for none
	ToolChoice    string // "auto", "required", "none"; empty for the API's default
}

// Turn is one message of the conversation. Assistant turns also hold the answer's live
// state (see chat_stream.go).
type Turn struct {
	Role  string // "user", "assistant" or "tool"
	Text  string // user text, tool result
	Image *Image // user: an attached image, or nil
	// LeftOutImage names the image a question restored from a link had attached: the link
	// does not carry images, so it is not sent again.
	LeftOutImage string
	ToolCallID   string  // tool: the call it answers
	ToolName     string  // tool: the function's name
	Answer       *Answer // assistant: the answer and its live state
	// Earlier is, on an assistant turn sent again (Retry), the failed answer it replaces: shown
	// until Answer says something (Shown), nil when that one had said nothing either.
	Earlier *Answer
}

// wireMessage is a message as the API takes it.
type wireMessage struct {
	Role       string         `json:"role"`
	Content    any            `json:"content"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type wireToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Body builds the JSON body of a chat completion request for the conversation so far: each
// assistant turn as it shows (Turn.Shown). Assistant turns that failed before saying anything
// are left out.
func Body(s Settings, turns []*Turn) ([]byte, error) {
	var msgs []wireMessage
	if strings.TrimSpace(s.System) != "" {
		msgs = append(msgs, wireMessage{Role: "system", Content: s.System})
	}
	for _, t := range turns {
		switch t.Role {
		case "user":
			if t.Image == nil {
				msgs = append(msgs, wireMessage{Role: "user", Content: t.Text})
				continue
			}
			parts := []map[string]any{}
			if t.Text != "" {
				parts = append(parts, map[string]any{"type": "text", "text": t.Text})
			}
			parts = append(parts, map[string]any{"type": "image_url", "image_url": map[string]string{"url": t.Image.DataURL}})
			msgs = append(msgs, wireMessage{Role: "user", Content: parts})
		case "tool":
			msgs = append(msgs, wireMessage{Role: "tool", Content: t.Text, ToolCallID: t.ToolCallID})
		case "assistant":
			if m, ok := t.Shown().message(); ok {
				msgs = append(msgs, m)
			}
		}
	}
	body := map[string]any{"model": s.Model, "messages": msgs}
	if body["model"] == "" {
		body["model"] = defaultChatModel
	}
	if s.Stream {
		body["stream"] = true
		body["stream_options"] = map[string]bool{"include_usage": true}
	}
	if tools := strings.TrimSpace(s.Tools); tools != "" && tools != "[]" {
		var defs []json.RawMessage
		if err := json.Unmarshal([]byte(tools), &defs); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadTools, err)
		}
		body["tools"] = defs
		if s.ToolChoice != "" {
			body["tool_choice"] = s.ToolChoice
		}
	}
	return json.Marshal(body)
}

// message returns what an answer adds to the conversation: its text and tool calls.
func (a *Answer) message() (wireMessage, bool) {
	if a == nil {
		return wireMessage{}, false
	}
	m := wireMessage{Role: "assistant"}
	for _, c := range a.Calls {
		w := wireToolCall{ID: c.ID, Type: "function"}
		w.Function.Name, w.Function.Arguments = c.Name, c.Arguments
		m.ToolCalls = append(m.ToolCalls, w)
	}
	text := a.md.Text()
	if text == "" && len(m.ToolCalls) == 0 {
		return m, false
	}
	if text != "" {
		m.Content = text
	}
	return m, true
}

// ModelOf returns the model the operation documents: the body schema's model default,
// example or first enum value.
func ModelOf(op *catalog.Operation) string {
	if op == nil || op.Body == nil || op.Body.Schema == nil {
		return defaultChatModel
	}
	for _, p := range op.Body.Schema.Properties {
		if p.Name != "model" || p.Schema == nil {
			continue
		}
		for _, raw := range []json.RawMessage{p.Schema.Default, p.Schema.Example} {
			var s string
			if json.Unmarshal(raw, &s) == nil && s != "" {
				return s
			}
		}
		for _, e := range p.Schema.Enum {
			var s string
			if json.Unmarshal(e.Value, &s) == nil && s != "" {
				return s
			}
		}
	}
	return defaultChatModel
}

// ErrBadTools is the error of a tools field that is not a JSON array of tool definitions.
var ErrBadTools = errors.New("tools must be a JSON array of tool definitions")

// ToolsExample is the tools field's placeholder: one function tool.
const ToolsExample = `[{"type":"function","function":{"name":"get_weather","description":"Current weather in a city","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]`

// chatCallsOf copies tool calls, so the view never shares the reader's slice.
func chatCallsOf(calls []sse.ToolCall) []sse.ToolCall { return append([]sse.ToolCall(nil), calls...) }
