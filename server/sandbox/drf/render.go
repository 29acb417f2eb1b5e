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
//
// A body that is an Appender is not encoded: what it appends is written as is.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	buf := buffers.Get().(*bytes.Buffer)
	defer putBuffer(buf)
	if err := encode(buf, v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"detail":"A server error occurred."}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Vary", "Accept")
	w.WriteHeader(status)
	_, _ = w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// An Appender is a body that knows its JSON, such as a page of records encoded ahead: a
// read-only dataset encodes each record once (Marshal) instead of on every call. AppendJSON
// must append exactly what WriteJSON would write for the equivalent plain value.
type Appender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// Marshal encodes v as WriteJSON writes it, in a slice of its own.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := encode(&buf, v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// encode appends v's JSON to buf: an Appender's own, or encoding/json's, without HTML
// escaping.
func encode(buf *bytes.Buffer, v any) error {
	if a, ok := v.(Appender); ok {
		out, err := a.AppendJSON(buf.AvailableBuffer())
		if err == nil {
			buf.Write(out)
		}
		return err
	}
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
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
