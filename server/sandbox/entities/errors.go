package entities

import (
	"encoding/json"
	"net/http"
)

// Error bodies the Knowledge Graph Search API returns for key problems,
// byte for byte as documented in the reference notes.
const (
	missingKeyBody = `{"error":{"code":403,"message":"The request is missing a valid API key.","errors":[{"message":"The request is missing a valid API key.","domain":"global","reason":"forbidden"}],"status":"PERMISSION_DENIED"}}`
	invalidKeyBody = `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"kgsearch.googleapis.com"}}]}}`
)

// apiError is a standard Google JSON error body.
type apiError struct {
	Error errorBody `json:"error"`
}

type errorBody struct {
	Code    int           `json:"code"`
	Message string        `json:"message"`
	Errors  []legacyError `json:"errors,omitempty"`
	Status  string        `json:"status,omitempty"`
	Details []any         `json:"details,omitempty"`
}

// legacyError is an item of the older "errors" array.
type legacyError struct {
	Message string `json:"message"`
	Domain  string `json:"domain"`
	Reason  string `json:"reason"`
}

// badRequest is a google.rpc.BadRequest detail naming the faulty field.
type badRequest struct {
	Type            string           `json:"@type"`
	FieldViolations []fieldViolation `json:"fieldViolations"`
}

type fieldViolation struct {
	Field       string `json:"field"`
	Description string `json:"description"`
}

// newError builds an error body with the legacy "errors" entry filled in.
func newError(code int, status, reason, msg string) *apiError {
	return &apiError{Error: errorBody{
		Code:    code,
		Message: msg,
		Errors:  []legacyError{{Message: msg, Domain: "global", Reason: reason}},
		Status:  status,
	}}
}

// invalidArgument reports a bad query parameter.
func invalidArgument(field, msg string) *apiError {
	e := newError(http.StatusBadRequest, "INVALID_ARGUMENT", "badRequest", msg)
	e.Error.Details = []any{badRequest{
		Type:            "type.googleapis.com/google.rpc.BadRequest",
		FieldViolations: []fieldViolation{{Field: field, Description: msg}},
	}}
	return e
}

// writeRaw writes a literal JSON error body.
func writeRaw(w http.ResponseWriter, code int, body string) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = w.Write([]byte(body))
}

// writeError writes e with its own code as the HTTP status.
func writeError(w http.ResponseWriter, e *apiError) {
	b, err := json.Marshal(e)
	if err != nil {
		writeRaw(w, http.StatusInternalServerError, `{"error":{"code":500,"message":"Internal error encountered.","status":"INTERNAL"}}`)
		return
	}
	writeRaw(w, e.Error.Code, string(b))
}
