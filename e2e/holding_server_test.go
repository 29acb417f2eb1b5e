package e2e

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"loupe/server"
)

// holdingServer serves a Loupe server of its own whose answers to the requests hold picks
// wait until release is called (or the test ends, which releases them). hold sees every
// request, so it can count them too. It returns the server's URL and release.
func holdingServer(t *testing.T, hold func(*http.Request) bool) (url string, release func()) {
	t.Helper()
	startServer(t) // checks the wasm is built
	srv := newServer(t, server.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	held := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hold(r) {
			select {
			case <-held:
			case <-r.Context().Done():
				return
			}
		}
		srv.ServeHTTP(w, r)
	}))
	var once sync.Once
	release = func() { once.Do(func() { close(held) }) }
	t.Cleanup(func() {
		release()
		ts.Close()
		srv.Close()
	})
	return ts.URL, release
}
