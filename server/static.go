package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"

	loupeapp "loupe/app"
	"loupe/app/catalog"
	"loupe/app/fetch"
	"loupe/content"
	servercatalog "loupe/server/catalog"
	"loupe/server/config"
	"loupe/server/sandbox/docs"
	"loupe/server/site"
	"loupe/server/walkthrough"
	"loupe/web"
)

// StaticConfig configures WriteStatic.
type StaticConfig struct {
	// Dir is the folder to write. It must not exist, be empty, or hold an earlier static site
	// (which is replaced whole). Required.
	Dir string
	// Base is the sub-path the folder is published under, with a leading and a trailing slash,
	// such as "/api/" or "/<repo>/" on GitHub Pages. Empty means "/", the root of the host.
	Base string
	// Content holds openapi/, guides/ and data/. Nil means the embedded content.FS.
	Content fs.FS
	// Web holds the assets, app.wasm and the sandbox modules (staticModules). Nil means the
	// embedded web.FS.
	Web fs.FS
	// Settings is the configuration (`loupe static -config`) whose APIs of your own (each
	// answered by its in-browser sandbox) and walkthroughs of your own are added to the site,
	// beside the built-in ones; the walkthroughs' sources are matched against both. Nil means
	// the built-in APIs and walkthroughs only.
	Settings *config.Config
}

// StaticSummary says what WriteStatic wrote.
type StaticSummary struct {
	// Pages is the number of prerendered pages; Files and Bytes count every file written.
	Pages, Files int
	Bytes        int64
}

// marker is the file that marks a folder as a static site WriteStatic may replace.
const marker = ".loupe-static"

// Module files in web/, built by `make wasm`: sandbox-<slug>.wasm for each built-in API
// (wasm/sandbox/<slug>), own.wasm for the APIs of your own (wasm/own) and walkthroughs.wasm, the
// walkthrough engine (wasm/walkthroughs).
const (
	ownModule          = "own.wasm"
	walkthroughsModule = "walkthroughs.wasm"
)

// apiModule is the module file of the built-in API slug.
func apiModule(slug string) string { return "sandbox-" + slug + ".wasm" }

// staticModules lists the modules of cat's built-in APIs, of its APIs of your own and of the
// walkthroughs, as the pages name them (root-relative, resolved by resolve); a module web does
// not hold is an error that says to build it.
func staticModules(web fs.FS, cat *catalog.Catalog, resolve func(string) string) (fetch.Modules, error) {
	m := fetch.Modules{APIs: map[string]string{}}
	need := func(name string) (string, error) {
		if _, err := fs.Stat(web, name); err != nil {
			return "", fmt.Errorf("web/%s is not built: run `make wasm` (or `make static`)", name)
		}
		return resolve("/web/" + name), nil
	}
	var err error
	for _, api := range cat.APIs {
		if api.Own {
			continue
		}
		if m.APIs[api.Slug], err = need(apiModule(api.Slug)); err != nil {
			return m, err
		}
	}
	if m.Own, err = need(ownModule); err != nil {
		return m, err
	}
	if m.Walkthroughs, err = need(walkthroughsModule); err != nil {
		return m, err
	}
	return m, nil
}

// fileWarning tells someone who opened a page of the folder from disk how to serve it instead:
// browsers run neither the wasm nor the service worker from file://.
const fileWarning = `<script>if (location.protocol === "file:") document.addEventListener("DOMContentLoaded", function () {
  var d = document.createElement("p"); d.id = "file-warning"; d.setAttribute("role", "alert");
  d.textContent = "This page was opened from a file, and browsers do not run the app from file://. " +
    "Serve the folder with any static file server instead, for example: python3 -m http.server -d <folder> 8000, " +
    "then open http://127.0.0.1:8000/ (under the -base path the site was built for).";
  document.body.insertBefore(d, document.body.firstChild);
});</script>`

// CheckBase validates a -base value and returns it with a trailing slash.
func CheckBase(base string) (string, error) {
	if base == "" {
		return "/", nil
	}
	if !strings.HasPrefix(base, "/") {
		return "", fmt.Errorf("-base %q must start with a slash, such as /%s/", base, strings.Trim(base, "/"))
	}
	for _, seg := range strings.Split(strings.Trim(base, "/"), "/") {
		if seg == "." || seg == ".." || strings.ContainsAny(seg, "?#%\\ \"'<>") {
			return "", fmt.Errorf("-base %q: each part must be a plain folder name (no ., .., spaces, ?, #, %%, quotes or backslashes)", base)
		}
	}
	return strings.TrimRight(base, "/") + "/", nil
}

// WriteStatic writes the whole playground as static files: every page prerendered (the
// overview, each API's guide, every operation), the catalog, the OpenAPI documents, both wasm
// modules and the assets. The APIs of your own that cfg.Settings configures are on the site
// too (staticOwn), each answered by the sandbox built from its document in the browser, and so
// are its walkthroughs. Served by any static file server, Send is answered by the sandboxes
// running in the browser (wasm/sandbox/<slug>, each API's module fetched on its first Send). The site is written into a temporary folder beside
// Dir and renamed into place, so a failure leaves nothing half-written.
//
// It registers the app's routes and sets go-app's page variables for this process: call it
// from a process that serves nothing else (`loupe static`).
func WriteStatic(cfg StaticConfig) (StaticSummary, error) {
	var sum StaticSummary
	base, err := CheckBase(cfg.Base)
	if err != nil {
		return sum, err
	}
	if cfg.Dir == "" {
		return sum, errors.New("no output folder: give one with -o DIR")
	}
	if cfg.Content == nil {
		cfg.Content = content.FS
	}
	if cfg.Web == nil {
		cfg.Web = web.FS
	}
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return sum, fmt.Errorf("output folder %s: %w", cfg.Dir, err)
	}
	if err := checkReplaceable(dir); err != nil {
		return sum, err
	}
	if _, err := fs.Stat(cfg.Web, walkthroughsModule); err != nil {
		return sum, fmt.Errorf("web/%s is not built: run `make wasm` (or `make static`)", walkthroughsModule)
	}
	cat, walks, err := loadCatalog(cfg.Content) // with the walkthroughs, which the site runs too
	if err != nil {
		return sum, err
	}
	ownDocs, ownFiles, err := staticOwn(cat, cfg.Settings) // the configuration's APIs of your own
	if err != nil {
		return sum, err
	}
	if cfg.Settings != nil {
		// The configuration's walkthroughs, their sources matched against the catalog that now
		// holds its APIs of your own too (each answered by its in-browser sandbox).
		configured, err := loadConfiguredWalkthroughs(cfg.Settings, cat, walks)
		if err != nil {
			return sum, err
		}
		walks = walks.Join(configured)
		if cat, err = withWalkthroughs(cat, walks); err != nil {
			return sum, err
		}
	}
	loupeapp.UseCatalog(cat)
	routesOnce.Do(loupeapp.Routes)

	pages := loupeapp.Pages(cat)
	files, err := staticFiles(cat, docsFS{cfg.Content, ownDocs})
	if err != nil {
		return sum, err
	}
	// Each walkthrough's document, as the server serves it: for download, for other runners,
	// and for the sandbox module, which loads those that are not built in from there.
	for _, w := range walks.List() {
		files[walkthrough.DocumentPath(w)] = w.Data
	}
	maps.Copy(files, ownFiles)
	// The version names the build for the service worker, which replaces its cache when it
	// changes: it is a hash of every file the build writes (the assets, the pages, the catalog,
	// the worker, the preview page, the images...), made with a provisional version, so that
	// any change, even one only a server-side string makes, is a new version.
	provisional, err := staticSite(cfg.Web, base, cat.Version, cat)
	if err != nil {
		return sum, err
	}
	version, err := buildHash(provisional, pages, files)
	if err != nil {
		return sum, err
	}
	st, err := staticSite(cfg.Web, base, version, cat)
	if err != nil {
		return sum, err
	}

	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".loupe-tmp-")
	if err != nil {
		return sum, fmt.Errorf("cannot write beside the output folder %s: %w", dir, err)
	}
	defer os.RemoveAll(tmp) // after a successful rename it no longer exists
	if err := os.Chmod(tmp, 0o755); err != nil {
		return sum, fmt.Errorf("output folder: %w", err)
	}
	if err := st.WriteFiles(tmp, pages); err != nil {
		return sum, err
	}
	for name, data := range files {
		p := filepath.Join(tmp, filepath.FromSlash(strings.TrimPrefix(name, "/")))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return sum, fmt.Errorf("writing %s: %w", name, err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return sum, fmt.Errorf("writing %s: %w", name, err)
		}
	}
	sum.Pages = len(pages)
	if err := filepath.WalkDir(tmp, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			sum.Files++
			sum.Bytes += info.Size()
		}
		return err
	}); err != nil {
		return sum, err
	}
	return sum, replaceDir(tmp, dir)
}

// staticSite is the site handler of a static build of cat under base, versioned by salt.
func staticSite(web fs.FS, base, salt string, cat *catalog.Catalog) (*site.Handler, error) {
	root := strings.TrimRight(base, "/")
	st, err := site.New(site.Options{
		Web:        web,
		Base:       base,
		RawHeaders: []string{`<link rel="preload" href="` + root + `/catalog.json" as="fetch" crossorigin="anonymous">`, fileWarning},
		PageHead:   staticPageHead,
		// The worker caches the shell, the catalog and the root page (for offline) at the first
		// visit. The sandbox modules (megabytes each) are not among them: the page fetches an
		// API's on its first Send, and the worker keeps it then (StaticWorkerTemplate caches what
		// it fetches).
		CacheableResources:    []string{"/catalog.json", base},
		ServiceWorkerTemplate: site.StaticWorkerTemplate,
		VersionSalt:           salt,
	})
	if err != nil {
		return nil, err
	}
	modules, err := staticModules(web, cat, st.Resolve)
	if err != nil {
		return nil, err
	}
	list, err := json.Marshal(modules)
	if err != nil {
		return nil, fmt.Errorf("listing the sandbox modules: %w", err)
	}
	st.SetEnv(map[string]string{"LOUPE_STATIC": "1", "LOUPE_SANDBOX_WASM": string(list)})
	return st, nil
}

// staticFiles are the files a static build writes besides the site handler's: the marker, the
// preview page, the catalog, the OpenAPI documents and the docs sandbox's images.
func staticFiles(cat *catalog.Catalog, content fs.FS) (map[string][]byte, error) {
	files := map[string][]byte{"/" + marker: []byte("written by loupe static; `loupe static` may replace this folder\n"),
		"/preview/index.html": []byte(previewPage)}
	catHandler := servercatalog.Handler(cat, content)
	urls := []string{"/catalog.json"}
	for _, a := range cat.APIs {
		urls = append(urls, "/openapi/"+a.Slug+".yaml")
	}
	for _, u := range urls {
		w := httptest.NewRecorder()
		catHandler.ServeHTTP(w, httptest.NewRequest(http.MethodGet, u, nil))
		if w.Code != http.StatusOK {
			return nil, fmt.Errorf("writing %s: status %d", u, w.Code)
		}
		files[u] = w.Body.Bytes()
	}
	images, err := docs.Images() // the docs sandbox's embed pages show them (docs.mediaBase)
	if err != nil {
		return nil, err
	}
	for p, b := range images {
		files["/sandbox/docs/_images"+p] = b
	}
	return files, nil
}

// buildHash is the version of a static build: a hash of every file st and files make, by name.
func buildHash(st *site.Handler, pages []string, files map[string][]byte) (string, error) {
	digests := map[string][sha256.Size]byte{}
	put := func(name string, data []byte) error {
		if strings.HasSuffix(name, ".html") {
			data = canonicalHTML(data)
		}
		digests[name] = sha256.Sum256(data)
		return nil
	}
	if err := st.WriteFilesTo(pages, put); err != nil {
		return "", err
	}
	for name, data := range files {
		_ = put(name, data)
	}
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(digests)) {
		d := digests[name]
		fmt.Fprintf(h, "%s\x00%x\n", name, d)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// checkReplaceable refuses an output folder that holds something other than a static site.
func checkReplaceable(dir string) error {
	info, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output folder %s: %w", dir, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("output folder %s is a file; choose a folder", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("output folder %s: %w", dir, err)
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, marker)); err != nil {
		return fmt.Errorf("output folder %s is not empty and was not written by `loupe static`; choose a new or empty folder", dir)
	}
	return nil
}

// replaceDir moves tmp to dir, replacing an earlier site there.
func replaceDir(tmp, dir string) error {
	if _, err := os.Stat(dir); err == nil {
		old := tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("replacing %s: %w", dir, err)
		}
		if err := os.Rename(tmp, dir); err != nil {
			_ = os.Rename(old, dir)
			return fmt.Errorf("replacing %s: %w", dir, err)
		}
		return os.RemoveAll(old)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("writing %s: %w", dir, err)
	}
	return nil
}
