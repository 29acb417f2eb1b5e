package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// chatRequest is the body of POST /v1/chat/completions. Fields the sandbox
// does not use (temperature, top_p, seed, user, …) are accepted and ignored.
type chatRequest struct {
	Model               string          `json:"model"`
	Messages            []*rawMessage   `json:"messages"` // nil: a JSON null, which checkShape refuses
	Stream              bool            `json:"stream"`
	StreamOptions       *streamOptions  `json:"stream_options"`
	Tools               []toolDef       `json:"tools"`
	ToolChoice          json.RawMessage `json:"tool_choice"`
	ParallelToolCalls   *bool           `json:"parallel_tool_calls"`
	MaxTokens           *int            `json:"max_tokens"`
	MaxCompletionTokens *int            `json:"max_completion_tokens"`
	N                   *int            `json:"n"`
	ResponseFormat      json.RawMessage `json:"response_format"`
}

// streamOptions is the request's stream_options object.
type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// rawMessage is one message as sent; content is decoded by parseMessages.
type rawMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Name       string          `json:"name"`
	ToolCalls  []toolCallIn    `json:"tool_calls"`
	ToolCallID string          `json:"tool_call_id"`
}

// toolCallIn is a tool call made by an earlier assistant message.
type toolCallIn struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// contentPart is one block of an array content.
type contentPart struct {
	Type     string          `json:"type"`
	Text     *string         `json:"text"`
	ImageURL json.RawMessage `json:"image_url"`
}

// imageURL is the image_url object of an image block ("url" may also be sent
// as the bare string value of image_url).
type imageURL struct {
	URL    string `json:"url"`
	Detail string `json:"detail"`
}

// message is a validated message: its text, decoded images and tool links.
type message struct {
	role       string // user, assistant, system (developer is read as system) or tool
	text       string // text blocks joined by newlines
	images     []imageInfo
	toolCalls  []toolCallIn // assistant only
	toolCallID string       // tool only
}

// decodeRequest parses the body and validates everything but the model, the
// tools and the limits. Its errors name the field and the JSON types as
// OpenAI's do, never a Go type.
//
// A body that decodes into chatRequest, is an object and holds no null
// message has the shape checkShape checks (each field it checks has a Go type
// that takes only the JSON types it allows), so checkShape's passes over the
// body run only for the others, to say what is wrong the way OpenAI does.
func decodeRequest(body []byte) (*chatRequest, []message, *apiError) {
	var req chatRequest
	err := json.Unmarshal(body, &req)
	if err != nil || !isObject(body) || slices.Contains(req.Messages, nil) {
		if apiErr := checkShape(body); apiErr != nil {
			return nil, nil, apiErr
		}
		if err != nil {
			return nil, nil, jsonError(body, err)
		}
	}
	if req.N != nil && *req.N != 1 {
		return nil, nil, invalidRequest("n", "invalid_value", "Invalid 'n': the sandbox model returns one choice, so n must be 1 (got %d).", *req.N)
	}
	if req.Messages == nil {
		return nil, nil, invalidRequest("messages", "", "Missing required parameter: 'messages'.")
	}
	if len(req.Messages) == 0 {
		return nil, nil, invalidRequest("messages", "empty_array", "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.")
	}
	msgs := make([]message, len(req.Messages))
	for i, raw := range req.Messages {
		m, apiErr := parseMessage(i, *raw)
		if apiErr != nil {
			return nil, nil, apiErr
		}
		msgs[i] = m
	}
	if apiErr := checkToolReplies(msgs); apiErr != nil {
		return nil, nil, apiErr
	}
	return &req, msgs, nil
}

// jsonError turns a decoding error of body into the 400 OpenAI answers,
// naming the field when the type is wrong.
func jsonError(body []byte, err error) *apiError {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return invalidRequest(typeErr.Field, "invalid_type",
			"Invalid type for '%s': expected %s, but got %s instead.", typeErr.Field, jsonTypeName(typeErr.Type), gotKind(body, typeErr))
	}
	return notJSON(body)
}

// parseMessage validates message i and decodes its content.
func parseMessage(i int, raw rawMessage) (message, *apiError) {
	m := message{role: raw.Role, toolCalls: raw.ToolCalls, toolCallID: raw.ToolCallID}
	switch raw.Role {
	case "user", "assistant", "system", "tool":
	case "developer":
		m.role = "system"
	case "":
		return m, invalidRequest(fmt.Sprintf("messages[%d].role", i), "",
			"Missing required parameter: 'messages[%d].role'.", i)
	default:
		return m, invalidRequest(fmt.Sprintf("messages[%d].role", i), "invalid_value",
			"Invalid value: '%s'. Supported values are: 'system', 'user', 'assistant' and 'tool'.", raw.Role)
	}
	if m.role == "tool" && m.toolCallID == "" {
		return m, invalidRequest(fmt.Sprintf("messages[%d].tool_call_id", i), "",
			"Missing required parameter: 'messages[%d].tool_call_id'.", i)
	}
	content := bytes.TrimSpace(raw.Content)
	if len(content) == 0 || bytes.Equal(content, []byte("null")) {
		if m.role == "assistant" {
			return m, nil // an assistant turn may hold only tool calls
		}
		return m, invalidRequest(fmt.Sprintf("messages[%d].content", i), "",
			"Missing required parameter: 'messages[%d].content'.", i)
	}
	switch content[0] {
	case '"':
		if err := json.Unmarshal(content, &m.text); err != nil { // cannot happen: checkShape saw valid JSON
			return m, notJSON(content)
		}
		return m, nil
	case '[':
		return parseParts(i, m, content)
	default:
		return m, invalidRequest(fmt.Sprintf("messages[%d].content", i), "invalid_type",
			"Invalid type for 'messages[%d].content': expected one of a string or array of objects, but got %s instead.", i, jsonKind(content))
	}
}

// parseParts decodes an array content: text and image blocks.
func parseParts(i int, m message, content []byte) (message, *apiError) {
	var raws []json.RawMessage
	if err := json.Unmarshal(content, &raws); err != nil { // cannot happen: checkShape saw an array
		return m, notJSON(content)
	}
	var texts []string
	for j, raw := range raws {
		param := fmt.Sprintf("messages[%d].content[%d]", i, j)
		var part contentPart
		if raw = bytes.TrimSpace(raw); raw[0] != '{' {
			return m, invalidRequest(param, "invalid_type", "Invalid type for '%s': expected an object, but got %s instead.", param, jsonKind(raw))
		}
		if err := json.Unmarshal(raw, &part); err != nil {
			var typeErr *json.UnmarshalTypeError
			if errors.As(err, &typeErr) && typeErr.Field != "" {
				return m, invalidRequest(param+"."+typeErr.Field, "invalid_type", "Invalid type for '%s.%s': expected %s, but got %s instead.",
					param, typeErr.Field, jsonTypeName(typeErr.Type), gotKind(raw, typeErr))
			}
			return m, notJSON(raw)
		}
		switch part.Type {
		case "text", "input_text":
			if part.Text == nil {
				return m, invalidRequest(param+".text", "", "Missing required parameter: '%s.text'.", param)
			}
			texts = append(texts, *part.Text)
		case "refusal":
			if m.role != "assistant" {
				return m, invalidRequest(param+".type", "invalid_value", "Invalid value: 'refusal'. Only assistant messages may hold refusal blocks.")
			}
		case "image_url":
			url, apiErr := partURL(param, part.ImageURL)
			if apiErr != nil {
				return m, apiErr
			}
			img, err := decodeImageURL(url)
			if err != nil {
				return m, invalidRequest(param, "invalid_image",
					"Invalid image in %s: %v.", param, err)
			}
			m.images = append(m.images, img)
		case "":
			return m, invalidRequest(param+".type", "", "Missing required parameter: '%s.type'.", param)
		default:
			return m, invalidRequest(param+".type", "invalid_value",
				"Invalid value: '%s'. Supported values are: 'text' and 'image_url'.", part.Type)
		}
	}
	m.text = strings.Join(texts, "\n")
	return m, nil
}

// partURL reads the URL of an image block, given as {"url": …} or as a string.
func partURL(param string, raw json.RawMessage) (string, *apiError) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", invalidRequest(param+".image_url", "", "Missing required parameter: '%s.image_url'.", param)
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil { // cannot happen: checkShape saw valid JSON
			return "", notJSON(raw)
		}
		return s, nil
	}
	if raw[0] != '{' {
		return "", invalidRequest(param+".image_url", "invalid_type",
			"Invalid type for '%s.image_url': expected an object, but got %s instead.", param, jsonKind(raw))
	}
	var u imageURL
	if err := json.Unmarshal(raw, &u); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return "", invalidRequest(param+".image_url."+typeErr.Field, "invalid_type", "Invalid type for '%s.image_url.%s': expected %s, but got %s instead.",
				param, typeErr.Field, jsonTypeName(typeErr.Type), gotKind(raw, typeErr))
		}
		return "", notJSON(raw)
	}
	if u.URL == "" {
		return "", invalidRequest(param+".image_url.url", "", "Missing required parameter: '%s.image_url.url'.", param)
	}
	return u.URL, nil
}
