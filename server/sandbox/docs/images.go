package docs

import (
	"fmt"
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
	b, err := fs.ReadFile(content.DocsFS, path.Join(pagesDir, project, "images", file))
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

// Images returns every image of the projects' documentation pages, keyed by the path the
// image route serves it under (/<project>/<file>), for a static site to publish at
// <base>/sandbox/docs/_images/ (mediaBase names it there).
func Images() (map[string][]byte, error) {
	out := map[string][]byte{}
	projects, err := fs.ReadDir(content.DocsFS, pagesDir)
	if err != nil {
		return nil, fmt.Errorf("listing the documentation sources: %w", err)
	}
	for _, p := range projects {
		dir := path.Join(pagesDir, p.Name(), "images")
		files, err := fs.ReadDir(content.DocsFS, dir)
		if err != nil {
			continue // a project without images
		}
		for _, f := range files {
			if f.IsDir() || strings.HasPrefix(f.Name(), ".") {
				continue
			}
			b, err := fs.ReadFile(content.DocsFS, path.Join(dir, f.Name()))
			if err != nil {
				return nil, fmt.Errorf("reading %s: %w", f.Name(), err)
			}
			out["/"+p.Name()+"/"+f.Name()] = b
		}
	}
	return out, nil
}
