// Package site serves the Loupe app: go-app's prerendered pages and its own files, and the
// static assets of web/ (the wasm precompressed with brotli and gzip, versioned by content hash).
package site

import (
	"fmt"
	"io/fs"
	"net/http"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Options configures the site handler.
type Options struct {
	// Web holds the files of web/: app.wasm with app.wasm.br and app.wasm.gz, the stylesheet
	// and the icons, flat. Required.
	Web fs.FS
	// Title is the page title prefix. Empty means "Loupe".
	Title string
	// RawHeaders are extra elements for every page's <head>, such as preload links.
	RawHeaders []string
	// Page reports whether a path names a page of the app. A path it does not name is answered
	// with the app's not-found page and the status 404. Nil means every path is a page.
	Page func(path string) bool
}

// Handler serves the app pages (prerendered on the server with the same routes as the wasm)
// and the static assets.
type Handler struct {
	assets *assets
	app    *app.Handler
	page   func(string) bool
}

// New builds the site handler. The routes must already be registered (loupe/app.Routes).
func New(opts Options) (*Handler, error) {
	if opts.Web == nil {
		return nil, fmt.Errorf("site: Options.Web is nil")
	}
	a, err := loadAssets(opts.Web)
	if err != nil {
		return nil, err
	}
	title := opts.Title
	if title == "" {
		title = "Loupe"
	}
	wasmLen := ""
	if f, ok := a.files["app.wasm"]; ok {
		wasmLen = strconv.Itoa(len(f.raw))
	}
	h := &app.Handler{
		Name:            "Loupe",
		ShortName:       "Loupe",
		Title:           title,
		Description:     "An API playground: every documented endpoint as a form, sent through a credential-holding proxy.",
		Lang:            "en",
		BackgroundColor: "#0f172a",
		ThemeColor:      "#0f172a",
		LoadingLabel:    "Loading Loupe {progress}%",
		Icon: app.Icon{
			Default: "/web/icon-192.png",
			Large:   "/web/icon-512.png",
			SVG:     "/web/icon.svg",
		},
		Styles:            []string{"/web/loupe.css"},
		RawHeaders:        opts.RawHeaders,
		Resources:         a,
		Version:           a.version,
		WasmContentLength: wasmLen,
	}
	return &Handler{assets: a, app: h, page: opts.Page}, nil
}

// Version is the content hash of the assets; it names the current build.
func (h *Handler) Version() string { return h.assets.version }

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.page != nil && isPagePath(r.URL.Path) && !h.page(r.URL.Path) {
		w = &notFoundWriter{ResponseWriter: w}
	}
	h.app.ServeHTTP(w, r)
}
