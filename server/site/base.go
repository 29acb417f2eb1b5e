package site

import (
	"net/http"
	"strings"
)

// baseResolver publishes the site under a sub-path: go-app's own files, the assets and the root
// get the base; every other location (the app's page links, which the app writes with the base
// already, see loupe/app.href) is left as is.
type baseResolver struct {
	*assets
	base string // "/api", no trailing slash
}

// resolver returns the assets' resolver, under base when base is neither empty nor "/".
func resolver(a *assets, base string) interface {
	Resolve(string) string
	http.Handler
} {
	base = strings.TrimRight(base, "/")
	if base == "" {
		return a
	}
	return baseResolver{assets: a, base: base}
}

// goAppFiles are the files go-app writes at the root of the site.
var goAppFiles = map[string]bool{
	"/app.js": true, "/app-worker.js": true, "/wasm_exec.js": true,
	"/manifest.webmanifest": true, "/app.css": true,
}

// Resolve implements app.ResourceResolver.
func (r baseResolver) Resolve(location string) string {
	switch {
	case location == "" || location == "/":
		return r.base // go-app's GOAPP_ROOT_PREFIX
	case strings.HasPrefix(location, "/web/"):
		return r.base + r.assets.Resolve(location)
	case goAppFiles[location], location == "/catalog.json":
		return r.base + location
	}
	return location
}
