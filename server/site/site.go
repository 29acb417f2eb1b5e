// Package site serves the Loupe app: go-app's prerendered pages and its own files, and the
// static assets of web/ (the wasm precompressed with brotli and gzip, versioned by content hash).
package site

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"

	"github.com/klauspost/compress/gzhttp"
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
	// Base is the sub-path the site is published under, such as "/api/" (see WriteStatic).
	// Empty means the root of the host.
	Base string
	// Env is set in every page, where the app reads it with app.Getenv. Nil sets nothing more
	// than go-app's own variables.
	Env map[string]string
	// CacheableResources are extra root-relative URLs the service worker caches on install,
	// such as "/catalog.json". Nil caches go-app's defaults only.
	CacheableResources []string
	// ServiceWorkerTemplate replaces go-app's app-worker.js template. Empty means
	// ServerWorkerTemplate (go-app's, with the pages kept too).
	ServiceWorkerTemplate string
	// VersionSalt is mixed into the version, for what the worker caches besides the assets
	// (the catalog's version in a static site), so a change there is a new build too.
	VersionSalt string
	// PageHead is put at the start of the <head> of every page WriteFiles writes (right after
	// its charset), such as a <meta> Content-Security-Policy, which governs only what follows
	// it. The pages the handler serves get none: a server sends its policy as a header.
	PageHead string
	// Page reports whether a path names a page of the app. A path it does not name is answered
	// with the app's not-found page and the status 404. Nil means every path is a page.
	Page func(path string) bool
}

// Handler serves the app pages (prerendered on the server with the same routes as the wasm)
// and the static assets.
type Handler struct {
	assets   *assets
	app      *app.Handler
	served   http.Handler // app, gzipped (app.js rewritten): pages, app.js, wasm_exec.js, app.css, the worker
	page     func(string) bool
	pageHead string
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
	if opts.VersionSalt != "" {
		sum := sha256.Sum256([]byte(a.version + " " + opts.VersionSalt))
		a.version = hex.EncodeToString(sum[:])[:16]
	}
	title := opts.Title
	if title == "" {
		title = "Loupe"
	}
	res := resolver(a, opts.Base)
	wasmLen := ""
	rawHeaders := opts.RawHeaders
	if f, ok := a.files["app.wasm"]; ok {
		wasmLen = strconv.FormatInt(f.size, 10)
		// The wasm is what a slow network waits for: ask for it while the page is parsed, not
		// after app.js has loaded and run (one round trip and a script later). app.js's
		// fetch of it takes the preloaded response.
		preload := `<link rel="preload" href="` + res.Resolve("/web/app.wasm") + `" as="fetch" crossorigin="anonymous">`
		rawHeaders = append([]string{preload}, opts.RawHeaders...)
	}
	worker := opts.ServiceWorkerTemplate
	if worker == "" {
		worker = ServerWorkerTemplate
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
		Styles:                []string{"/web/loupe.css"},
		Scripts:               []string{"/web/theme.js", "/web/prerender.js"}, // the saved theme before first paint; typed values kept while the wasm loads
		RawHeaders:            rawHeaders,
		Resources:             res,
		Env:                   opts.Env,
		CacheableResources:    opts.CacheableResources,
		ServiceWorkerTemplate: worker,
		Version:               a.version,
		WasmContentLength:     wasmLen,
	}
	// go-app writes its pages and scripts uncompressed (a page is about 50 KB of HTML); the
	// assets come precompressed with their own Content-Encoding, which gzhttp leaves alone.
	return &Handler{assets: a, app: h, served: gzhttp.GzipHandler(appJSRewriter{h}), page: opts.Page, pageHead: opts.PageHead}, nil
}

// Resolve is the address of a root-relative URL of the site ("/web/app.wasm", "/app.js")
// once published: under the base, with the assets' version.
func (h *Handler) Resolve(location string) string { return h.app.Resources.Resolve(location) }

// Version is the content hash of the assets; it names the current build.
func (h *Handler) Version() string { return h.assets.version }

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.page != nil && isPagePath(r.URL.Path) && !h.page(r.URL.Path) {
		w = &notFoundWriter{ResponseWriter: w}
	}
	h.served.ServeHTTP(w, r)
}

// SetEnv adds variables to every page (see Options.Env), such as URLs only Resolve knows.
func (h *Handler) SetEnv(env map[string]string) {
	if h.app.Env == nil {
		h.app.Env = map[string]string{}
	}
	for k, v := range env {
		h.app.Env[k] = v
	}
}
