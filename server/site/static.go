package site

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// StaticWorkerTemplate is go-app's service worker with one change for a site published as files:
// a page or file not cached at install is cached the first time it is fetched, and a page asked
// for while offline falls back to the site's root page, where the app routes by the address. A
// new build has a new version, whose worker starts an empty cache and deletes the old one.
var StaticWorkerTemplate = strings.Replace(app.DefaultAppWorkerJS, goAppFetchWithCache, staticFetchWithCache, 1)

const goAppFetchWithCache = `async function fetchWithCache(request) {
  const cachedResponse = await caches.match(request);
  if (cachedResponse) {
    return cachedResponse;
  }
  return await fetch(request);
}`

const staticFetchWithCache = `async function fetchWithCache(request) {
  const cache = await caches.open(cacheName);
  const cachedResponse = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
  if (cachedResponse) {
    return cachedResponse;
  }
  try {
    const response = await fetch(request);
    if (request.method === "GET" && response.ok && !response.redirected &&
        new URL(request.url).origin === self.location.origin) {
      cache.put(request, response.clone());
    }
    return response;
  } catch (err) {
    if (request.mode === "navigate") {
      const root = await cache.match(self.registration.scope);
      if (root) {
        return root;
      }
    }
    throw err;
  }
}`

// WriteFiles writes the site as files into dir: every page of pages (root-relative, "/" first)
// as <page>/index.html, the app's not-found page as 404.html (which GitHub Pages, Netlify,
// Cloudflare Pages and most static hosts answer for a missing path; the app then shows what is
// missing), go-app's own files, and every asset under web/<version>/ with its precompressed
// variants. A page that does not render with status 200 is an error.
func (h *Handler) WriteFiles(dir string, pages []string) error {
	if !strings.Contains(StaticWorkerTemplate, "cache.put(request") {
		return fmt.Errorf("go-app's service worker changed: the static site's offline cache cannot be installed")
	}
	render := func(path string, ok ...int) ([]byte, error) {
		w := httptest.NewRecorder()
		appJSRewriter{h.app}.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		if !slices.Contains(ok, w.Code) {
			return nil, fmt.Errorf("rendering %s: status %d", path, w.Code)
		}
		return w.Body.Bytes(), nil
	}
	get := func(path string) ([]byte, error) { return render(path, http.StatusOK) }
	// The app renders its not-found page at a path none of its pages has (go-app answers it
	// 200 under a catch-all route, 404 otherwise); a static host answers 404.html with 404.
	notFound, err := render(notFoundPage, http.StatusOK, http.StatusNotFound)
	if err != nil {
		return err
	}
	if err := writeFile(dir, "/404.html", notFound); err != nil {
		return err
	}
	for _, page := range pages {
		body, err := get(page)
		if err != nil {
			return err
		}
		if err := writeFile(dir, strings.TrimSuffix(page, "/")+"/index.html", body); err != nil {
			return err
		}
	}
	for name := range goAppFiles {
		body, err := get(name)
		if err != nil {
			return err
		}
		if err := writeFile(dir, name, body); err != nil {
			return err
		}
	}
	for name, f := range h.assets.files {
		prefix := "/web/" + h.assets.version + "/" + name
		for suffix, src := range map[string]string{"": f.name, ".br": f.brotli, ".gz": f.gzip} {
			if src == "" {
				continue
			}
			data, err := h.assets.read(src)
			if err != nil {
				return fmt.Errorf("writing %s: %w", prefix+suffix, err)
			}
			if err := writeFile(dir, prefix+suffix, data); err != nil {
				return err
			}
		}
	}
	return nil
}

// notFoundPage is a path no page of the app has, rendered as the site's 404.html: the
// prerendered text names it, and the app, once running, names the address asked for.
const notFoundPage = "/404"

// writeFile writes data to dir/<root-relative name>, creating folders.
func writeFile(dir, name string, data []byte) error {
	p := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(name, "/")))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}
