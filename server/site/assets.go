package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

// asset is one static file held in memory, with its precompressed variants.
type asset struct {
	name        string
	contentType string
	raw         []byte
	gzip        []byte // nil when no app.wasm.gz-style variant was built
	brotli      []byte
}

// assets serves the files of web/ under /web/<version>/<name>. It implements go-app's
// ResourceResolver, so every /web/ URL go-app writes into a page carries the version: a new
// build is never served stale, and an asset can be cached forever.
type assets struct {
	version string
	files   map[string]*asset
	modTime time.Time
}

// servedTypes lists the file types of web/ that are served; everything else (web.go) is not.
var servedTypes = map[string]string{
	".wasm": "application/wasm",
	".css":  "text/css; charset=utf-8",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".js":   "text/javascript; charset=utf-8",
}

// loadAssets reads every servable file of fsys (flat) and pairs name.br and name.gz with name.
func loadAssets(fsys fs.FS) (*assets, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("reading web assets: %w", err)
	}
	a := &assets{files: map[string]*asset{}, modTime: time.Now()}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			continue
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("reading web asset %s: %w", name, err)
		}
		switch {
		case strings.HasSuffix(name, ".br"):
			a.variant(strings.TrimSuffix(name, ".br")).brotli = data
		case strings.HasSuffix(name, ".gz"):
			a.variant(strings.TrimSuffix(name, ".gz")).gzip = data
		default:
			ct, ok := servedTypes[path.Ext(name)]
			if !ok {
				continue
			}
			f := a.variant(name)
			f.contentType, f.raw = ct, data
			names = append(names, name)
		}
	}
	for name, f := range a.files {
		if f.raw == nil {
			delete(a.files, name) // a stray .br or .gz without its source
		}
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s %d\n", n, len(a.files[n].raw))
		h.Write(a.files[n].raw)
	}
	a.version = hex.EncodeToString(h.Sum(nil))[:16]
	return a, nil
}

func (a *assets) variant(name string) *asset {
	f, ok := a.files[name]
	if !ok {
		f = &asset{name: name}
		a.files[name] = f
	}
	return f
}

// Resolve implements app.ResourceResolver: /web/x becomes /web/<version>/x.
func (a *assets) Resolve(location string) string {
	if location == "" || location == "/" {
		return "/"
	}
	if strings.HasPrefix(location, "/web/") {
		return "/web/" + a.version + "/" + strings.TrimPrefix(location, "/web/")
	}
	return location
}

// ServeHTTP serves /web/<version>/<name> (and /web/<name>, uncached) with the best encoding the
// client accepts.
func (a *assets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, "/web/")
	versioned := false
	if v, name, ok := strings.Cut(rest, "/"); ok && v == a.version {
		rest, versioned = name, true
	}
	f, ok := a.files[rest]
	if !ok {
		w.Header().Del("ETag")
		w.Header().Set("Cache-Control", "no-store")
		if rest == "app.wasm" {
			http.Error(w, "app.wasm is not built: run `make build` (or `make run`)", http.StatusNotFound)
			return
		}
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Del("ETag")
	if versioned {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	h.Set("Content-Type", f.contentType)
	h.Set("X-Content-Type-Options", "nosniff")
	body, encoding := f.raw, ""
	if f.brotli != nil || f.gzip != nil {
		h.Add("Vary", "Accept-Encoding")
		accepted := acceptedEncodings(r.Header.Get("Accept-Encoding"))
		switch {
		case f.brotli != nil && accepted["br"]:
			body, encoding = f.brotli, "br"
		case f.gzip != nil && accepted["gzip"]:
			body, encoding = f.gzip, "gzip"
		}
	}
	if encoding != "" {
		h.Set("Content-Encoding", encoding)
	}
	h.Set("X-Uncompressed-Length", strconv.Itoa(len(f.raw)))
	// ServeContent handles Range and HEAD; with Content-Encoding set it serves the encoded bytes.
	http.ServeContent(w, r, "", a.modTime, bytes.NewReader(body))
}

// acceptedEncodings parses Accept-Encoding, leaving out codings with q=0.
func acceptedEncodings(header string) map[string]bool {
	out := map[string]bool{}
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		if q, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(q, 64); err == nil && f == 0 {
				continue
			}
		}
		out[name] = true
	}
	return out
}

func init() {
	_ = mime.AddExtensionType(".wasm", "application/wasm")
}
