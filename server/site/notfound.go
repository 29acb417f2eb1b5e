package site

import (
	"net/http"
	"strings"
)

// goappFiles are the paths go-app serves itself: never pages.
var goappFiles = map[string]bool{
	"/wasm_exec.js": true, "/goapp.js": true, "/app.js": true, "/app-worker.js": true,
	"/manifest.json": true, "/manifest.webmanifest": true, "/app.css": true,
	"/app.wasm": true, "/goapp.wasm": true, "/robots.txt": true, "/sitemap.xml": true, "/ads.txt": true,
}

// isPagePath reports whether go-app answers path with a rendered page rather than a file.
func isPagePath(path string) bool {
	return !goappFiles[path] && !strings.HasPrefix(path, "/web/")
}

// notFoundWriter turns the 200 of a rendered page into 404: the body is the app's not-found
// page, which the wasm renders too.
type notFoundWriter struct {
	http.ResponseWriter
	wrote bool
}

// WriteHeader implements http.ResponseWriter.
func (w *notFoundWriter) WriteHeader(code int) {
	if w.wrote {
		return
	}
	w.wrote = true
	if code == http.StatusOK {
		code = http.StatusNotFound
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write implements http.ResponseWriter.
func (w *notFoundWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.ResponseWriter.Write(b)
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (w *notFoundWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
