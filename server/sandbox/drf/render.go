package drf

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// WriteJSON writes v as compact JSON like DRF's JSONRenderer: no HTML escaping (links keep
// their &, embedded HTML its <), no trailing newline, Vary: Accept. A value that does not
// encode is answered like DRF's unhandled error.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"detail":"A server error occurred."}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Vary", "Accept")
	w.WriteHeader(status)
	_, _ = w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}
