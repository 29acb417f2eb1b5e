package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
)

// This file honours response_format, as OpenAI's structured outputs do:
//
//   - {"type": "text"} (or none): the Markdown answer.
//   - {"type": "json_object"}: a JSON object, the same app as the Markdown
//     answer would hold ({"title", "plan", "html"}). As OpenAI does, the
//     messages must then say "JSON" somewhere (400 otherwise).
//   - {"type": "json_schema", "json_schema": {"name", "schema", "strict"}}: a
//     JSON value that validates against the schema, generated from the schema
//     alone and deterministically (argGen with no prompt facts): its const and
//     enum values, the example values of its formats (user@example.com,
//     https://example.com/), the smallest numbers its bounds allow, "example"
//     for any other string. The sandbox does not know the answer to the
//     question asked, so it never makes one up from the prompt: the values are
//     plainly placeholders, in the shape the schema asks for.
//
// Tool calls are not affected: a reply that calls tools has no content.

// Response format types.
const (
	formatText       = "text"
	formatJSONObject = "json_object"
	formatJSONSchema = "json_schema"
)

// responseFormat is a validated response_format.
type responseFormat struct {
	typ    string          // formatText, formatJSONObject or formatJSONSchema
	schema json.RawMessage // json_schema's schema; nil for any JSON object
}

// validFormatName is OpenAI's rule for json_schema.name.
var validFormatName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// checkFormat validates the request's response_format against its messages.
func checkFormat(raw json.RawMessage, msgs []message) (responseFormat, *apiError) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return responseFormat{typ: formatText}, nil
	}
	if raw[0] != '{' {
		return responseFormat{}, invalidRequest("response_format", "invalid_type",
			"Invalid type for 'response_format': expected an object, but got %s instead.", jsonKind(raw))
	}
	var f struct {
		Type       *string          `json:"type"`
		JSONSchema *json.RawMessage `json:"json_schema"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return responseFormat{}, fieldTypeError("response_format", raw, err)
	}
	switch {
	case f.Type == nil:
		return responseFormat{}, invalidRequest("response_format.type", "missing_required_parameter", "Missing required parameter: 'response_format.type'.")
	case *f.Type == formatText:
		return responseFormat{typ: formatText}, nil
	case *f.Type == formatJSONObject:
		if !mentionsJSON(msgs) {
			return responseFormat{}, invalidRequest("messages", "",
				"'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.")
		}
		return responseFormat{typ: formatJSONObject}, nil
	case *f.Type != formatJSONSchema:
		return responseFormat{}, invalidRequest("response_format.type", "invalid_value",
			"Invalid value: '%s'. Supported values are: 'json_object', 'json_schema', and 'text'.", *f.Type)
	case f.JSONSchema == nil || bytes.Equal(bytes.TrimSpace(*f.JSONSchema), []byte("null")):
		return responseFormat{}, invalidRequest("response_format.json_schema", "missing_required_parameter",
			"Missing required parameter: 'response_format.json_schema'.")
	}
	js := bytes.TrimSpace(*f.JSONSchema)
	if js[0] != '{' {
		return responseFormat{}, invalidRequest("response_format.json_schema", "invalid_type",
			"Invalid type for 'response_format.json_schema': expected an object, but got %s instead.", jsonKind(js))
	}
	var spec struct {
		Name   *string         `json:"name"`
		Schema json.RawMessage `json:"schema"`
	}
	if err := json.Unmarshal(js, &spec); err != nil {
		return responseFormat{}, fieldTypeError("response_format.json_schema", js, err)
	}
	switch {
	case spec.Name == nil:
		return responseFormat{}, invalidRequest("response_format.json_schema.name", "missing_required_parameter",
			"Missing required parameter: 'response_format.json_schema.name'.")
	case !validFormatName.MatchString(*spec.Name):
		return responseFormat{}, invalidRequest("response_format.json_schema.name", "invalid_value",
			"Invalid 'response_format.json_schema.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$' with at most 64 characters.")
	}
	schema := bytes.TrimSpace(spec.Schema)
	if len(schema) > 0 && !bytes.Equal(schema, []byte("null")) {
		if schema[0] != '{' {
			return responseFormat{}, invalidRequest("response_format.json_schema.schema", "invalid_type",
				"Invalid type for 'response_format.json_schema.schema': expected an object, but got %s instead.", jsonKind(schema))
		}
		return responseFormat{typ: formatJSONSchema, schema: schema}, nil
	}
	return responseFormat{typ: formatJSONSchema}, nil
}

// fieldTypeError names the member of the object at param whose type is wrong.
func fieldTypeError(param string, raw []byte, err error) *apiError {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		p := param + "." + typeErr.Field
		return invalidRequest(p, "invalid_type", "Invalid type for '%s': expected %s, but got %s instead.", p, jsonTypeName(typeErr.Type), gotKind(raw, typeErr))
	}
	return notJSON(raw)
}

// mentionsJSON reports whether any message says "json", in any case.
func mentionsJSON(msgs []message) bool {
	for _, m := range msgs {
		if strings.Contains(strings.ToLower(m.text), "json") {
			return true
		}
	}
	return false
}

// formatContent writes the answer's content in the format asked for.
func formatContent(f responseFormat, msgs []message, seed [32]byte, budget int) (string, *apiError) {
	switch f.typ {
	case formatJSONObject:
		p := planAnswer(msgs, seed)
		a := p.app(p.s.rows)
		var page strings.Builder
		a.render(&page)
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(struct { // strings only: it encodes
			Title string   `json:"title"`
			Plan  []string `json:"plan"`
			HTML  string   `json:"html"`
		}{a.heading, a.plan(), page.String()})
		return strings.TrimSuffix(buf.String(), "\n"), nil
	case formatJSONSchema:
		if f.schema == nil {
			return "{}", nil
		}
		out, err := toolArguments(f.schema, promptFacts{})
		if err != nil {
			return "", invalidRequest("response_format.json_schema.schema", "invalid_value",
				"Invalid 'response_format.json_schema.schema': it is not a JSON Schema the sandbox can read (%s).", strings.TrimPrefix(err.Error(), "json: "))
		}
		return out, nil
	}
	return answerText(msgs, seed, budget), nil
}
