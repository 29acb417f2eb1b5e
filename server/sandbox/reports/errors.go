package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// unauthorizedBody is the documented 401 body, for a missing or wrong access token.
const unauthorizedBody = `{"error":{"code":401,"message":"Access denied. You are not authorized to read activity records.","errors":[{"message":"Access denied. You are not authorized to read activity records.","domain":"global","reason":"authError","location":"Authorization","locationType":"header"}],"status":"UNAUTHENTICATED"}}`

// apiError is Google's JSON error body (the GoogleError schema).
type apiError struct {
	Error errorBody `json:"error"`
}

type errorBody struct {
	Code    int         `json:"code"`
	Message string      `json:"message"`
	Errors  []errorItem `json:"errors,omitempty"`
	Status  string      `json:"status,omitempty"`
}

// errorItem is an entry of the errors array.
type errorItem struct {
	Message      string `json:"message"`
	Domain       string `json:"domain"`
	Reason       string `json:"reason"`
	Location     string `json:"location,omitempty"`
	LocationType string `json:"locationType,omitempty"`
}

// newError builds an error body with one errors entry.
func newError(code int, status, reason, msg string) *apiError {
	return &apiError{Error: errorBody{
		Code:    code,
		Message: msg,
		Errors:  []errorItem{{Message: msg, Domain: "global", Reason: reason}},
		Status:  status,
	}}
}

// invalidParam is a 400 naming the faulty parameter in the message and in errors[].location.
func invalidParam(name, format string, args ...any) *apiError {
	e := newError(http.StatusBadRequest, "INVALID_ARGUMENT", "invalid", fmt.Sprintf(format, args...))
	e.Error.Errors[0].Location = name
	e.Error.Errors[0].LocationType = "parameter"
	return e
}

// outOfRange is the documented 400 for maxResults outside [1, 1000], word for word.
func outOfRange(raw string) *apiError {
	return newError(http.StatusBadRequest, "INVALID_ARGUMENT", "invalid",
		fmt.Sprintf("Invalid value '%s'. Values must be within the range: [%d, %d]", raw, minResults, maxResultsLimit))
}

// notFound answers a path the sandbox does not serve.
func notFound(path string) *apiError {
	return newError(http.StatusNotFound, "NOT_FOUND", "notFound", fmt.Sprintf(
		"The requested URL %s was not found on this server. The reports sandbox serves GET %s.", path, ListPattern))
}

// methodNotAllowed answers any method but GET (and HEAD).
func methodNotAllowed(method string) *apiError {
	return newError(http.StatusMethodNotAllowed, "", "httpMethodNotAllowed",
		fmt.Sprintf("Method %s is not allowed; activities.list is GET %s.", method, ListPattern))
}

// oneOf lists allowed values for a message.
func oneOf(values []string) string { return strings.Join(values, ", ") }

// writeJSON writes v as JSON with the given status, without escaping <, > and & (the real
// API does not).
func writeJSON(w http.ResponseWriter, code int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		writeRaw(w, http.StatusInternalServerError, `{"error":{"code":500,"message":"Internal error encountered.","status":"INTERNAL"}}`)
		return
	}
	writeRaw(w, code, strings.TrimSuffix(buf.String(), "\n"))
}

// writeRaw writes a literal JSON body.
func writeRaw(w http.ResponseWriter, code int, body string) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = w.Write([]byte(body))
}

// writeError writes e with its own code as the HTTP status.
func writeError(w http.ResponseWriter, e *apiError) { writeJSON(w, e.Error.Code, e) }
