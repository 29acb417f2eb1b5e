package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// This file checks the JSON shape of a request body before it is decoded, so
// that a value of the wrong type is named as OpenAI names it (the field with
// its index, "an integer", "an array of objects") and never with a Go type.

// notJSON is the 400 OpenAI answers for a body that is not JSON, with where it
// stopped making sense.
func notJSON(body []byte) *apiError {
	const openai = "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)"
	var syn *json.SyntaxError
	if err := json.Unmarshal(body, new(json.RawMessage)); errors.As(err, &syn) {
		return invalidRequest("", "", "%s The body stops being JSON at byte %d: %s.", openai, syn.Offset, strings.TrimPrefix(syn.Error(), "json: "))
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return invalidRequest("", "", "%s The body is empty.", openai)
	}
	return invalidRequest("", "", "%s", openai)
}

// isObject reports whether body, a JSON value, is an object.
func isObject(body []byte) bool {
	body = bytes.TrimSpace(body)
	return len(body) > 0 && body[0] == '{'
}

// checkShape checks that body is one JSON object and that messages, when
// present, is an array of objects whose role, name, tool_call_id and
// tool_calls have the types OpenAI expects.
func checkShape(body []byte) *apiError {
	body = bytes.TrimSpace(body)
	if !json.Valid(body) {
		return notJSON(body)
	}
	if body[0] != '{' {
		return invalidRequest("", "invalid_type", "Invalid type for the request body: expected an object, but got %s instead.", jsonKind(body))
	}
	var top struct {
		Messages json.RawMessage `json:"messages"`
	}
	_ = json.Unmarshal(body, &top) // an object: it decodes
	msgs := bytes.TrimSpace(top.Messages)
	if len(msgs) == 0 || bytes.Equal(msgs, []byte("null")) {
		return nil // missing: decodeRequest says so
	}
	if msgs[0] != '[' {
		return invalidRequest("messages", "invalid_type", "Invalid type for 'messages': expected an array of objects, but got %s instead.", jsonKind(msgs))
	}
	var items []json.RawMessage
	_ = json.Unmarshal(msgs, &items)
	for i, item := range items {
		param := fmt.Sprintf("messages[%d]", i)
		if item = bytes.TrimSpace(item); item[0] != '{' {
			return invalidRequest(param, "invalid_type", "Invalid type for '%s': expected an object, but got %s instead.", param, jsonKind(item))
		}
		var fields map[string]json.RawMessage
		_ = json.Unmarshal(item, &fields)
		for _, name := range []string{"role", "name", "tool_call_id", "tool_calls"} {
			v := bytes.TrimSpace(fields[name])
			if len(v) == 0 || bytes.Equal(v, []byte("null")) {
				continue
			}
			switch want := "a string"; {
			case name == "tool_calls" && v[0] != '[':
				want = "an array of objects"
				fallthrough
			case name != "tool_calls" && v[0] != '"':
				return invalidRequest(param+"."+name, "invalid_type", "Invalid type for '%s.%s': expected %s, but got %s instead.", param, name, want, jsonKind(v))
			}
		}
	}
	return nil
}

// jsonKind names the JSON type of raw, a valid JSON value, as OpenAI's errors
// do: "an object", "an array", "a string", "a boolean", "null", "an integer"
// or "a decimal number".
func jsonKind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return numberKind(string(raw))
}

// numberKind names a JSON number: "an integer" or "a decimal number".
func numberKind(lit string) string {
	if strings.ContainsAny(lit, ".eE") {
		return "a decimal number"
	}
	return "an integer"
}

// gotKind names the JSON type of the value a decoding error is about: a
// number is read back from body, where it ends at the error's offset.
func gotKind(body []byte, e *json.UnmarshalTypeError) string {
	if lit, ok := strings.CutPrefix(e.Value, "number "); ok {
		return numberKind(lit)
	}
	if e.Value != "number" {
		return articled(e.Value)
	}
	end := int(e.Offset)
	if end > len(body) {
		return "a number"
	}
	start := end
	for start > 0 && strings.IndexByte("0123456789+-.eE", body[start-1]) >= 0 {
		start--
	}
	return numberKind(string(body[start:end]))
}

// jsonTypeName names the JSON type a Go type decodes from, as OpenAI's errors
// name what they expected.
func jsonTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if e := t.Elem(); e.Kind() == reflect.Struct || e.Kind() == reflect.Map {
			return "an array of objects"
		}
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
		return "a decimal"
	case reflect.Pointer:
		return jsonTypeName(t.Elem())
	}
	return "a different type"
}

// articled puts an article before the JSON type names encoding/json reports
// ("string", "object", "array", "bool").
func articled(value string) string {
	switch value {
	case "bool":
		return "a boolean"
	case "null":
		return "null"
	case "object", "array":
		return "an " + value
	}
	return "a " + value
}
