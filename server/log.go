package server

import (
	"log/slog"
	"net/http"
	"time"
)

// statusRecorder remembers the status and size of a response; it keeps http.Flusher working
// through Unwrap, which http.ResponseController follows.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

// WriteHeader records the first status written.
func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

// Write counts the body's bytes; a body without a status is a 200.
func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += int64(n)
	return n, err
}

// Flush passes a flush on, so event streams are not held back.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// logRequests writes one slog line per request: method, path (never the query, which may hold
// a key), status, bytes and duration. The line goes to the logger's handler as a record of
// typed attributes, as the proxy's audit line does: no value boxed into an interface (an
// allocation each), no runtime.Callers for a source that would always name this function, one
// reading of the clock.
func logRequests(log *slog.Logger, next http.Handler) http.Handler {
	h := log.Handler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		ctx := r.Context()
		if !h.Enabled(ctx, slog.LevelInfo) {
			return
		}
		now := time.Now()
		line := slog.NewRecord(now, slog.LevelInfo, "request", 0)
		line.AddAttrs(slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Int("status", rec.status),
			slog.Int64("bytes", rec.bytes), slog.Duration("duration", now.Sub(start).Round(time.Microsecond)))
		_ = h.Handle(ctx, line) // as Logger.Info, which drops a handler's error too
	})
}
