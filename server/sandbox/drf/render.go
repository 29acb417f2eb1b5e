package drf

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
)

// WriteJSON writes v as compact JSON like DRF's JSONRenderer: no HTML escaping (links keep
// their &, embedded HTML its <), no trailing newline, Vary: Accept. A value that does not
// encode is answered like DRF's unhandled error.
//
// Its buffer comes from a pool: a page of a list is tens of KB, which a fresh buffer grew to
// by doubling on every call (garbage the collector chased under load).
func WriteJSON(w http.ResponseWriter, status int, v any) {
	buf := buffers.Get().(*bytes.Buffer)
	defer putBuffer(buf)
	enc := json.NewEncoder(buf)
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

// buffers holds WriteJSON's buffers.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// putBuffer returns buf to the pool, unless it grew past 1 MiB (a rare large answer is not
// kept for the process's life).
func putBuffer(buf *bytes.Buffer) {
	if buf.Cap() > 1<<20 {
		return
	}
	buf.Reset()
	buffers.Put(buf)
}
