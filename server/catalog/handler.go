package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"strings"

	"loupe/app/catalog"
)

// Handler serves the catalog and the documents it was compiled from:
//
//	GET /catalog.json        the catalog as JSON, compressed (br or gzip, by Accept-Encoding)
//	GET /openapi/<slug>.yaml the document as written, for export (application/yaml)
//	GET /catalog/<slug>/<operationId>.json  an operation /catalog.json lists partially (see SlimAbove)
//
// Both carry a strong ETag and Cache-Control: no-cache, so a browser revalidates and gets
// 304 Not Modified until the content changes. The catalog is encoded and compressed once,
// here (brotli in the background, see encodings). fsys is the content directory Load read,
// with openapi/<slug>.yaml at its root.
func Handler(c *catalog.Catalog, fsys fs.FS) http.Handler {
	h := &handler{docs: map[string]*resource{}, details: &details{cat: c}}
	body, err := json.Marshal(slim(c))
	if err != nil {
		h.catalogErr = fmt.Errorf("encode catalog: %w", err)
	} else {
		h.catalog = newResource(body, "application/json; charset=utf-8", c.Version, true)
	}
	for _, a := range c.APIs {
		data, err := fs.ReadFile(fsys, "openapi/"+a.Slug+".yaml")
		if err != nil {
			h.docs[a.Slug] = &resource{err: fmt.Errorf("read document %s: %w", a.Slug, err)}
			continue
		}
		sum := sha256.Sum256(data)
		h.docs[a.Slug] = newResource(data, "application/yaml; charset=utf-8", hex.EncodeToString(sum[:6]), false)
	}
	return h
}

type handler struct {
	catalog    *resource
	catalogErr error
	docs       map[string]*resource
	details    *details
}

// resource is a response body prepared once: its identity bytes and, when compressed, its
// gzip and br forms (see encodings), each with its own strong ETag.
type resource struct {
	contentType string
	tag         string // ETag without quotes or encoding suffix
	identity    []byte
	enc         *encodings // nil when served uncompressed
	err         error
}

func newResource(body []byte, contentType, tag string, compressed bool) *resource {
	r := &resource{contentType: contentType, tag: tag, identity: body}
	if compressed {
		r.enc = compress(body)
	}
	return r
}

// ServeHTTP routes /catalog.json and /openapi/<slug>.yaml.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var res *resource
	switch {
	case r.URL.Path == "/catalog.json":
		if h.catalogErr != nil {
			writeError(w, http.StatusInternalServerError, h.catalogErr.Error())
			return
		}
		res = h.catalog
	case strings.HasPrefix(r.URL.Path, "/openapi/") && strings.HasSuffix(r.URL.Path, ".yaml"):
		slug := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/openapi/"), ".yaml")
		if res = h.docs[slug]; res == nil {
			writeError(w, http.StatusNotFound, fmt.Sprintf("no OpenAPI document for API %q", slug))
			return
		}
		if res.err != nil {
			writeError(w, http.StatusInternalServerError, res.err.Error())
			return
		}
	case strings.HasPrefix(r.URL.Path, "/catalog/"):
		if res = h.details.resource(r.URL.Path); res == nil {
			writeError(w, http.StatusNotFound, "no partial operation at "+r.URL.Path)
			return
		}
		if res.err != nil {
			writeError(w, http.StatusInternalServerError, res.err.Error())
			return
		}
	default:
		writeError(w, http.StatusNotFound, "not found: "+r.URL.Path)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeError(w, http.StatusMethodNotAllowed, "method not allowed")
		return
	}
	res.serve(w, r)
}

// serve writes the resource in the best encoding the client accepts, or 304 when the
// client's copy is current.
func (res *resource) serve(w http.ResponseWriter, r *http.Request) {
	body, encoding := res.identity, ""
	if res.enc != nil {
		w.Header().Add("Vary", "Accept-Encoding")
		accepted := acceptedEncodings(r.Header.Get("Accept-Encoding"))
		var br *[]byte
		if accepted["br"] {
			br = res.enc.brotli() // nil until made; the first such request starts it
		}
		switch {
		case br != nil:
			body, encoding = *br, "br"
		case accepted["gzip"]:
			body, encoding = res.enc.gz, "gzip"
		}
	}
	etag := `"` + res.tag
	if encoding != "" {
		etag += "-" + encoding
	}
	etag += `"`
	hdr := w.Header()
	hdr.Set("ETag", etag)
	hdr.Set("Cache-Control", "no-cache")
	if res.matches(r.Header.Get("If-None-Match")) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hdr.Set("Content-Type", res.contentType)
	hdr.Set("X-Content-Type-Options", "nosniff")
	if encoding != "" {
		hdr.Set("Content-Encoding", encoding)
	}
	hdr.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
}

// matches reports whether an If-None-Match header names this resource's current content,
// in any of its encodings (they share the content, only their bytes differ).
func (res *resource) matches(header string) bool {
	if header == "" {
		return false
	}
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" {
			return true
		}
		t = strings.Trim(t, `"`)
		if t == res.tag || t == res.tag+"-br" || t == res.tag+"-gzip" {
			return true
		}
	}
	return false
}

// acceptedEncodings returns the codings an Accept-Encoding header allows (q > 0); "*"
// allows br and gzip unless they are named with q=0.
func acceptedEncodings(header string) map[string]bool {
	q := map[string]float64{}
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		q[name] = 1
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q[name] = f
			}
		}
	}
	out := map[string]bool{}
	for _, name := range []string{"br", "gzip"} {
		v, named := q[name]
		out[name] = (named && v > 0) || (!named && q["*"] > 0)
	}
	return out
}

// writeError answers with a JSON error body.
func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}
