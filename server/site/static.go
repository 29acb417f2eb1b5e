package site

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// StaticWorkerTemplate is go-app's service worker for a site published as files, where no
// header says what may be cached for how long:
//
//   - the versioned assets (web/<version>/…: app.wasm, the sandbox module, the stylesheet) are
//     answered from the cache first: their address changes with their content;
//   - everything else of the site (the pages, app.js, wasm_exec.js, the catalog, the preview)
//     comes from the network first, revalidated (cache "no-cache"), and from the cache only
//     offline: a rebuilt site reaches a returning visitor on their next load, not the load after
//     the build after. Offline, a page not cached falls back to the site's root page, where the
//     app routes by the address;
//   - nothing else is cached or answered from the cache: another site's address, a method other
//     than GET, a request asking for no store (the app's calls to a real API, with the user's
//     key: app/fetch), or one carrying credentials.
//
// It installs fresh copies (freshInstall), and a new build has a new version, whose worker
// starts an empty cache and deletes the old one.
var StaticWorkerTemplate = strings.Replace(strings.Replace(app.DefaultAppWorkerJS,
	goAppFetchWithCache, staticFetchWithCache, 1),
	goAppInstall, freshInstall, 1)

const goAppFetchWithCache = `async function fetchWithCache(request) {
  const cachedResponse = await caches.match(request);
  if (cachedResponse) {
    return cachedResponse;
  }
  return await fetch(request);
}`

const staticFetchWithCache = `async function fetchWithCache(request) {
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || request.cache === "no-store" ||
      request.headers.has("Authorization") || !url.href.startsWith(self.registration.scope)) {
    return await fetch(request); // not the site's file: never cached, never answered from the cache
  }
  const cache = await caches.open(cacheName);
  if (url.pathname.startsWith(new URL("web/{{.Version}}/", self.registration.scope).pathname)) {
    const cached = await cache.match(request);
    if (cached) {
      return cached;
    }
    const response = await fetch(request);
    if (response.ok && !response.redirected) {
      cache.put(request, response.clone());
    }
    return response;
  }
  try {
    const navigate = request.mode === "navigate";
    const response = await fetch(new Request(url.href, { cache: "no-cache", credentials: "same-origin", redirect: navigate ? "manual" : "follow" }));
    if (response.ok && !response.redirected) {
      cache.put(request, response.clone());
    }
    return response;
  } catch (err) {
    const cached = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
    if (cached) {
      return cached;
    }
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
	return h.WriteFilesTo(pages, func(name string, data []byte) error { return writeFile(dir, name, data) })
}

// WriteFilesTo hands every file WriteFiles would write to put, by its root-relative name:
// WriteStatic hashes them first, for a version that covers everything a build changes.
func (h *Handler) WriteFilesTo(pages []string, put func(name string, data []byte) error) error {
	if !strings.Contains(StaticWorkerTemplate, "cache.put(request") || !strings.Contains(StaticWorkerTemplate, `new Request(url, { cache: "no-cache" })`) {
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
	// The app's not-found page carries the page head as every page does; an app with no
	// catch-all route answers go-app's plain text, which runs nothing and is written as it is.
	if bytes.Contains(notFound, []byte(pageCharset)) {
		if notFound, err = h.withPageHead("/404.html", notFound); err != nil {
			return err
		}
	}
	if err := put("/404.html", notFound); err != nil {
		return err
	}
	for _, page := range pages {
		body, err := get(page)
		if err != nil {
			return err
		}
		if body, err = h.withPageHead(page, body); err != nil {
			return err
		}
		if err := put(strings.TrimSuffix(page, "/")+"/index.html", body); err != nil {
			return err
		}
	}
	for name := range goAppFiles {
		body, err := get(name)
		if err != nil {
			return err
		}
		if err := put(name, body); err != nil {
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
			if err := put(prefix+suffix, data); err != nil {
				return err
			}
		}
	}
	return nil
}

// pageCharset is how go-app's pages start their <head>.
const pageCharset = `<meta charset="UTF-8">`

// withPageHead puts Options.PageHead right after the page's charset.
func (h *Handler) withPageHead(page string, body []byte) ([]byte, error) {
	if h.pageHead == "" {
		return body, nil
	}
	i := bytes.Index(body, []byte(pageCharset))
	if i < 0 {
		return nil, fmt.Errorf("writing %s: go-app's page has no %s to put the page head after", page, pageCharset)
	}
	i += len(pageCharset)
	out := make([]byte, 0, len(body)+len(h.pageHead)+1)
	out = append(append(append(out, body[:i]...), "\n    "+h.pageHead...), body[i:]...)
	return out, nil
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
