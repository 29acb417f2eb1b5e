package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// chatRequest is the body of POST /v1/chat/completions. Fields the sandbox
// does not use (temperature, top_p, seed, user, …) are accepted and ignored.
type chatRequest struct {
	Model               string          `json:"model"`
	Messages            []rawMessage    `json:"messages"`
	Stream              bool            `json:"stream"`
	StreamOptions       *streamOptions  `json:"stream_options"`
	Tools               []toolDef       `json:"tools"`
	ToolChoice          json.RawMessage `json:"tool_choice"`
	ParallelToolCalls   *bool           `json:"parallel_tool_calls"`
	MaxTokens           *int            `json:"max_tokens"`
	MaxCompletionTokens *int            `json:"max_completion_tokens"`
	N                   *int            `json:"n"`
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
// tools and the limits.
func decodeRequest(body []byte) (*chatRequest, []message, *apiError) {
	var req chatRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&req); err != nil {
		return nil, nil, jsonError(err)
	}
	if dec.More() {
		return nil, nil, invalidRequest("", "", "We could not parse the JSON body of your request: unexpected data after the top-level value.")
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
		m, apiErr := parseMessage(i, raw)
		if apiErr != nil {
			return nil, nil, apiErr
		}
		msgs[i] = m
	}
	return &req, msgs, nil
}

// jsonError turns a decoding error into the 400 OpenAI answers for a body it
// cannot parse, naming the field when the type is wrong.
func jsonError(err error) *apiError {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return invalidRequest(typeErr.Field, "invalid_type",
			"Invalid type for '%s': expected %s, but got %s instead.", typeErr.Field, jsonTypeName(typeErr.Type), articled(typeErr.Value))
	}
	return invalidRequest("", "",
		"We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload.) Decoding error: %v", err)
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
		if err := json.Unmarshal(content, &m.text); err != nil {
			return m, invalidRequest(fmt.Sprintf("messages[%d].content", i), "", "Invalid 'messages[%d].content': %v.", i, err)
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
	var parts []contentPart
	if err := json.Unmarshal(content, &parts); err != nil {
		return m, invalidRequest(fmt.Sprintf("messages[%d].content", i), "invalid_type",
			"Invalid 'messages[%d].content': expected an array of text and image blocks: %v.", i, err)
	}
	var texts []string
	for j, part := range parts {
		param := fmt.Sprintf("messages[%d].content[%d]", i, j)
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
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", invalidRequest(param+".image_url", "", "Invalid '%s.image_url': %v.", param, err)
		}
		return s, nil
	}
	var u imageURL
	if err := json.Unmarshal(raw, &u); err != nil {
		return "", invalidRequest(param+".image_url", "invalid_type", "Invalid '%s.image_url': %v.", param, err)
	}
	if u.URL == "" {
		return "", invalidRequest(param+".image_url.url", "", "Missing required parameter: '%s.image_url.url'.", param)
	}
	return u.URL, nil
}

// jsonKind names the JSON type of raw for error messages.
func jsonKind(raw []byte) string {
	switch raw[0] {
	case '{':
		return "an object"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

// jsonTypeName names the JSON type a Go type decodes from.
func jsonTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Pointer:
		return jsonTypeName(t.Elem())
	}
	return "a different type"
}

// articled puts an article before the JSON type names encoding/json reports
// ("string", "number", "object", "array", "bool").
func articled(value string) string {
	switch {
	case value == "bool":
		return "a boolean"
	case value == "null":
		return "null"
	case strings.HasPrefix(value, "number"):
		return "a number"
	case value == "object" || value == "array":
		return "an " + value
	}
	return "a " + value
}
