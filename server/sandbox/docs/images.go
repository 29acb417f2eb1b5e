package docs

import (
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"loupe/content"
)

// serveImage answers GET /_images/<project>/<file> with an image of a
// project's documentation pages (content/data/docs/<project>/images/), the
// URL the embed endpoint gives the pages' relative image sources.
func (h *handler) serveImage(w http.ResponseWriter, r *http.Request, rest string) {
	project, file, ok := strings.Cut(rest, "/")
	if !ok || project == "" || file == "" || strings.Contains(file, "/") || strings.HasPrefix(file, ".") {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	b, err := fs.ReadFile(content.FS, path.Join(pagesDir, project, "images", file))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	ctype := mime.TypeByExtension(path.Ext(file))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if r.Method == http.MethodGet {
		_, _ = w.Write(b)
	}
}
