package chat

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// apiError is an error answered to the client in the OpenAI error shape:
// {"error":{"message":…,"type":…,"param":…,"code":…}}.
type apiError struct {
	status  int
	message string
	typ     string
	param   string // "" is sent as null
	code    string // "" is sent as null
}

// Error returns the message the client sees.
func (e *apiError) Error() string { return e.message }

// invalidRequest is a 400 invalid_request_error about param (may be "").
func invalidRequest(param, code, format string, args ...any) *apiError {
	return &apiError{
		status:  http.StatusBadRequest,
		message: fmt.Sprintf(format, args...),
		typ:     "invalid_request_error",
		param:   param,
		code:    code,
	}
}

// errorBody is the JSON body of an error response.
type errorBody struct {
	Error errorObject `json:"error"`
}

// errorObject mirrors OpenAI's ErrorObject.
type errorObject struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

// nullable turns "" into a JSON null.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// writeError answers e in the OpenAI error shape.
func writeError(w http.ResponseWriter, e *apiError) {
	body, err := json.Marshal(errorBody{Error: errorObject{
		Message: e.message,
		Type:    e.typ,
		Param:   nullable(e.param),
		Code:    nullable(e.code),
	}})
	if err != nil { // cannot happen: only strings are marshalled
		http.Error(w, e.message, e.status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(e.status)
	_, _ = w.Write(append(body, '\n'))
}
