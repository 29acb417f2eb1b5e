package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// bodyProblem says what is wrong with a request body that did not decode, in JSON's words
// (a field, the JSON type it needs and the one it got), never in Go's.
func bodyProblem(err error) string {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			field = "the body"
		} else {
			field = "[" + field + "]"
		}
		return fmt.Sprintf("%s must be %s, not %s", field, jsonKind(typeErr.Type), strings.Fields(typeErr.Value)[0])
	case errors.As(err, &syntaxErr):
		return fmt.Sprintf("the body is not valid JSON (at byte %d)", syntaxErr.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the body ends before its JSON does"
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return "unknown field [" + strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`) + "]"
	default:
		return "the body is not valid JSON"
	}
}

// jsonKind names the JSON type a Go type decodes from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.String {
			return "an array of strings"
		}
		return "an array"
	default:
		return "an object"
	}
}
