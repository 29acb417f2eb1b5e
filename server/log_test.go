package server

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
)

// TestLogRequests: one line per request with its method, path (never its query), status, bytes
// and duration, at info level; none when the logger is above info.
func TestLogRequests(t *testing.T) {
	tests := []struct {
		name, method, target string
		handler              http.HandlerFunc
		want                 string
	}{
		{"a body without a status", "GET", "/catalog.json?key=SECRET-1", func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte("hello"))
		}, `level=INFO msg=request method=GET path=/catalog.json status=200 bytes=5 duration=\d`},
		{"a status without a body", "POST", "/proxy/chat/v1/x?access_token=SECRET-2", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusTooManyRequests)
		}, `level=INFO msg=request method=POST path=/proxy/chat/v1/x status=429 bytes=0 duration=\d`},
		{"a space in the path", "GET", "/a%20b", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte("no"))
		}, `method=GET path="/a b" status=404 bytes=2 duration=\d`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			h := logRequests(slog.New(slog.NewTextHandler(&out, nil)), tt.handler)
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(tt.method, tt.target, nil))
			if got := out.String(); !regexp.MustCompile(tt.want).MatchString(got) || bytes.Count(out.Bytes(), []byte("\n")) != 1 {
				t.Errorf("got %q; want one line matching %q", got, tt.want)
			}
			if bytes.Contains(out.Bytes(), []byte("SECRET")) {
				t.Errorf("got %q; want no query", out.String())
			}
		})
	}
	var out bytes.Buffer
	h := logRequests(slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelWarn})), http.NotFoundHandler())
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/x", nil))
	if out.Len() != 0 {
		t.Errorf("a logger at warn: got %q; want no line", out.String())
	}
}
