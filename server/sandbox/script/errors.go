package script

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
)

// apiError is the standard Google JSON error body, {"error": {...}}.
type apiError struct {
	Error errorStatus `json:"error"`
}

// errorStatus is the error object of a Google error body.
type errorStatus struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Status  string `json:"status,omitempty"`
	Details []any  `json:"details,omitempty"`
}

// errorInfo is a google.rpc.ErrorInfo detail.
type errorInfo struct {
	Type     string            `json:"@type"`
	Reason   string            `json:"reason"`
	Domain   string            `json:"domain"`
	Metadata map[string]string `json:"metadata"`
}

// badRequestDetail is a google.rpc.BadRequest detail.
type badRequestDetail struct {
	Type            string           `json:"@type"`
	FieldViolations []fieldViolation `json:"fieldViolations"`
}

// fieldViolation names the faulty field (when known) and says what is wrong with it.
type fieldViolation struct {
	Field       string `json:"field,omitempty"`
	Description string `json:"description"`
}

const service = "script.googleapis.com"

// newInfoError builds an error carrying an ErrorInfo detail with the given reason.
func newInfoError(code int, status, reason, msg string) *apiError {
	return &apiError{Error: errorStatus{Code: code, Message: msg, Status: status, Details: []any{errorInfo{
		Type: "type.googleapis.com/google.rpc.ErrorInfo", Reason: reason, Domain: "googleapis.com",
		Metadata: map[string]string{"service": service},
	}}}}
}

// errMissingCredential is the documented 401 for a request without any credential.
func errMissingCredential() *apiError {
	return newInfoError(http.StatusUnauthorized, "UNAUTHENTICATED", "CREDENTIALS_MISSING",
		"Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.")
}

// errInvalidKey is the 400 Google answers for a wrong key query parameter.
func errInvalidKey() *apiError {
	return newInfoError(http.StatusBadRequest, "INVALID_ARGUMENT", "API_KEY_INVALID",
		"API key not valid. Please pass a valid API key.")
}

// errNotFound is the documented 404 for an unknown project, version or deployment.
func errNotFound() *apiError {
	return &apiError{Error: errorStatus{Code: http.StatusNotFound, Message: "Requested entity was not found.", Status: "NOT_FOUND"}}
}

// errMethodNotFound answers a path or method the API does not have.
func errMethodNotFound(method, path string) *apiError {
	return &apiError{Error: errorStatus{Code: http.StatusNotFound,
		Message: fmt.Sprintf("Method not found: %s %s.", method, path), Status: "NOT_FOUND"}}
}

// errPermission is a 403 for a caller without the needed access to the project.
func errPermission(msg string) *apiError {
	return &apiError{Error: errorStatus{Code: http.StatusForbidden, Message: msg, Status: "PERMISSION_DENIED"}}
}

// errAlreadyExists is a 409 for a generated ID that is already taken.
func errAlreadyExists(msg string) *apiError {
	return &apiError{Error: errorStatus{Code: http.StatusConflict, Message: msg, Status: "ALREADY_EXISTS"}}
}

// invalidArgument is a 400 INVALID_ARGUMENT whose BadRequest detail names field (may be empty).
func invalidArgument(field, msg string) *apiError {
	return &apiError{Error: errorStatus{Code: http.StatusBadRequest, Message: msg, Status: "INVALID_ARGUMENT",
		Details: []any{badRequestDetail{Type: "type.googleapis.com/google.rpc.BadRequest",
			FieldViolations: []fieldViolation{{Field: field, Description: msg}}}}}}
}

// invalidValue is the 400 Google answers for a query parameter of the wrong type or value.
func invalidValue(field, typ, value string) *apiError {
	return invalidArgument(field, fmt.Sprintf("Invalid value at '%s' (%s), %q", field, typ, value))
}

// writeJSON writes v as the JSON body with the status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code = http.StatusInternalServerError
		b = []byte(`{"error":{"code":500,"message":"Internal error encountered.","status":"INTERNAL"}}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = w.Write(b)
	_, _ = w.Write([]byte("\n"))
}

// writeError writes e with its own code as the HTTP status.
func writeError(w http.ResponseWriter, e *apiError) { writeJSON(w, e.Error.Code, e) }

// maxBody bounds a request body.
const maxBody = 4 << 20

// decodeBody decodes the JSON request body into v, refusing unknown fields the way Google does.
// An empty body decodes as {}.
func decodeBody(r *http.Request, v any) *apiError {
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return invalidArgument("", fmt.Sprintf("Invalid JSON payload received. Reading the body: %v.", err))
	}
	if len(b) > maxBody {
		return invalidArgument("", "Invalid JSON payload received. The body is larger than 4 MiB.")
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	err = dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("trailing data")
	}
	if err == nil {
		return nil
	}
	var typeErr *json.UnmarshalTypeError
	switch msg := err.Error(); {
	case strings.HasPrefix(msg, "json: unknown field "):
		name := strings.TrimPrefix(msg, "json: unknown field ")
		text := fmt.Sprintf("Invalid JSON payload received. Unknown name %s: Cannot find field.", name)
		return &apiError{Error: errorStatus{Code: http.StatusBadRequest, Message: text, Status: "INVALID_ARGUMENT",
			Details: []any{badRequestDetail{Type: "type.googleapis.com/google.rpc.BadRequest",
				FieldViolations: []fieldViolation{{Description: text}}}}}}
	case errors.As(err, &typeErr):
		return invalidArgument(typeErr.Field, fmt.Sprintf("Invalid JSON payload received. Invalid value at '%s': expected %s, got %s.",
			typeErr.Field, jsonKind(typeErr.Type), jsonValueWord(typeErr.Value)))
	default:
		return invalidArgument("", fmt.Sprintf("Invalid JSON payload received. %s.", strings.TrimPrefix(msg, "json: ")))
	}
}

// jsonKind says in JSON's words what a Go type of a request field accepts.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "another kind of value"
}

// jsonValueWord names the kind of JSON value the decoder met ("string", "number", "array"…).
func jsonValueWord(v string) string {
	switch v {
	case "array":
		return "a list"
	case "object":
		return "an object"
	case "bool":
		return "true or false"
	case "string", "number":
		return "a " + v
	}
	if strings.HasPrefix(v, "number") {
		return "the number " + strings.TrimSpace(strings.TrimPrefix(v, "number"))
	}
	return v
}
