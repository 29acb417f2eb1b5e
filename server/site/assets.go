package site

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

// asset is one static file of web/ with its precompressed variants. It names them in the
// assets' file system instead of holding their bytes: web.FS is embedded, and a copy of it on
// the heap would be about 90 MB (the sandbox module alone is 54 MB raw), which every server
// would carry though most of it is only ever written out by WriteStatic.
type asset struct {
	name        string
	contentType string
	size        int64  // the raw file's size
	gzip        string // the variant's name in the file system, or "" when none was built
	brotli      string
}

// assets serves the files of web/ under /web/<version>/<name>. It implements go-app's
// ResourceResolver, so every /web/ URL go-app writes into a page carries the version: a new
// build is never served stale, and an asset can be cached forever.
type assets struct {
	fsys    fs.FS
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

// loadAssets lists every servable file of fsys (flat) and pairs name.br and name.gz with name.
// The version is a hash of each file's name and size and of the bytes of its smallest variant
// (a build writes all three together): reading only those keeps the 54 MB sandbox module's
// pages out of memory at start.
func loadAssets(fsys fs.FS) (*assets, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("reading web assets: %w", err)
	}
	a := &assets{fsys: fsys, files: map[string]*asset{}, modTime: time.Now()}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return nil, fmt.Errorf("reading web asset %s: %w", name, err)
		}
		switch {
		case strings.HasSuffix(name, ".br"):
			a.variant(strings.TrimSuffix(name, ".br")).brotli = name
		case strings.HasSuffix(name, ".gz"):
			a.variant(strings.TrimSuffix(name, ".gz")).gzip = name
		default:
			ct, ok := servedTypes[path.Ext(name)]
			if !ok {
				continue
			}
			f := a.variant(name)
			f.contentType, f.size = ct, info.Size()
		}
	}
	var names []string
	for name, f := range a.files {
		if f.contentType == "" {
			delete(a.files, name) // a stray .br or .gz without its source, or a file not served
			continue
		}
		names = append(names, name)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		f := a.files[n]
		smallest := cmp.Or(f.brotli, f.gzip, f.name)
		fmt.Fprintf(h, "%s %d %s\n", n, f.size, smallest)
		if err := copyFile(h, fsys, smallest); err != nil {
			return nil, err
		}
	}
	a.version = hex.EncodeToString(h.Sum(nil))[:16]
	return a, nil
}

// copyFile writes the named file of fsys to w.
func copyFile(w io.Writer, fsys fs.FS, name string) error {
	f, err := fsys.Open(name)
	if err != nil {
		return fmt.Errorf("reading web asset %s: %w", name, err)
	}
	defer f.Close()
	if _, err := io.Copy(w, f); err != nil {
		return fmt.Errorf("reading web asset %s: %w", name, err)
	}
	return nil
}

// read returns the named file's bytes (one of an asset's variants).
func (a *assets) read(name string) ([]byte, error) {
	return fs.ReadFile(a.fsys, name)
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
	name, encoding := f.name, ""
	if f.brotli != "" || f.gzip != "" {
		h.Add("Vary", "Accept-Encoding")
		accepted := acceptedEncodings(r.Header.Get("Accept-Encoding"))
		switch {
		case f.brotli != "" && accepted["br"]:
			name, encoding = f.brotli, "br"
		case f.gzip != "" && accepted["gzip"]:
			name, encoding = f.gzip, "gzip"
		}
	}
	if encoding != "" {
		h.Set("Content-Encoding", encoding)
	}
	h.Set("X-Uncompressed-Length", strconv.FormatInt(f.size, 10))
	body, err := a.fsys.Open(name)
	if err != nil {
		http.Error(w, "reading "+name+" failed", http.StatusInternalServerError)
		return
	}
	defer body.Close()
	content, ok := body.(io.ReadSeeker) // embed.FS and os.DirFS files are: served without a copy
	if !ok {
		data, err := io.ReadAll(body)
		if err != nil {
			http.Error(w, "reading "+name+" failed", http.StatusInternalServerError)
			return
		}
		content = bytes.NewReader(data)
	}
	// ServeContent handles Range and HEAD; with Content-Encoding set it serves the encoded bytes.
	http.ServeContent(w, r, "", a.modTime, content)
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
