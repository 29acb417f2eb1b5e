// Package docs is the built-in sandbox of the docs API, a read-only
// documentation-hosting REST API v2 (its real-world counterpart is the Read
// the Docs API v2), as content/openapi/docs.yaml documents it: projects,
// their versions and builds in limit/offset pages, and an embed endpoint that
// returns the HTML of a documentation page or section.
//
// It is mounted at /sandbox/docs with the prefix stripped, so it sees paths
// like /api/v2/project/. List links (next, previous) are absolute, like Django
// REST framework's request.build_absolute_uri: they name the address the
// client used (see Options.Prefix and the X-Forwarded-* headers).
//
// The dataset is real-size and the same on every run (see Projects, Versions
// and Builds): 21 projects, over 300 versions and 2,000 builds, three
// projects written out around the document's examples (so each example is
// what the sandbox answers) and the rest generated from a seeded source.
// Bodies carry every field of the real serializers. The embed pages are
// Markdown sources under content/data/docs rendered with goldmark; one page,
// doc "untrusted" of project "kitchen-sink", holds hostile HTML (see
// HostileDoc), and the embed endpoint returns it as is, like the real
// service. A write is refused with DRF's 403 before any 405.
package docs

import (
	"fmt"
	"net/http"
	"strings"
	"sync"

	"loupe/server/sandbox/drf"
)

// DefaultPrefix is where the sandbox Mux mounts the sandbox; links use it when
// the request neither says where it was mounted (X-Forwarded-Prefix) nor
// carries its original RequestURI.
const DefaultPrefix = "/sandbox/docs"

// Options configures New. The zero value serves the documented behaviour.
type Options struct {
	// Prefix is the mount point used in links when the request does not
	// reveal it; default DefaultPrefix.
	Prefix string
	// DisableUnfilteredLists makes unfiltered lists answer 410 Gone like the
	// real service (projects without slug, versions without project__slug,
	// builds without project__slug or commit). By default they are served,
	// as the contract describes.
	DisableUnfilteredLists bool
}

// sharedDataset builds the dataset once: it is read-only, so every handler
// shares it.
var sharedDataset = sync.OnceValue(newDataset)

// handler serves the API over the fixed dataset.
type handler struct {
	prefix          string
	disableUnfilter bool
	data            *dataset
}

// New returns the sandbox handler. It needs no credential: the API has none.
func New(opts Options) http.Handler {
	h := &handler{prefix: strings.TrimRight(opts.Prefix, "/"), disableUnfilter: opts.DisableUnfilteredLists}
	if opts.Prefix == "" {
		h.prefix = DefaultPrefix
	}
	h.data = sharedDataset()
	return h
}

// ServeHTTP routes by path (404, or a 301 to the path with its trailing
// slash), then checks the method in DRF's order (an anonymous write is 403
// before any 405, since permissions are checked before the handler is
// looked up), then answers the operation. Images of the documentation pages
// are served under /_images/ (see serveImage).
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if rest, ok := strings.CutPrefix(r.URL.Path, "/_images/"); ok {
		h.serveImage(w, r, rest)
		return
	}
	serve, ok := h.route(r.URL.Path)
	if !ok {
		if _, slashed := h.route(r.URL.Path + "/"); slashed && !strings.HasSuffix(r.URL.Path, "/") {
			// Django's APPEND_SLASH: a permanent redirect to the slashed path.
			u := drf.AbsoluteURL(r, h.prefix)
			u.Path += "/"
			http.Redirect(w, r, u.String(), http.StatusMovedPermanently)
			return
		}
		drf.WriteJSON(w, http.StatusNotFound, detail{"Not found."})
		return
	}
	switch r.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		// ReadOnlyPermission refuses a write by a client without a build
		// API key; the sandbox holds no keys, so every write is anonymous.
		drf.WriteJSON(w, http.StatusForbidden, detail{"Authentication credentials were not provided."})
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		drf.WriteJSON(w, http.StatusMethodNotAllowed, detail{fmt.Sprintf("Method %q not allowed.", r.Method)})
		return
	}
	status, body := serve(r)
	drf.WriteJSON(w, status, body)
}

// operation answers one request with a status and a body to encode as JSON.
type operation func(r *http.Request) (int, any)

// route finds the operation serving path, the way DRF's DefaultRouter matches
// (an id is any segment without "/" or "."; a non-numeric one is a 404 later).
func (h *handler) route(path string) (operation, bool) {
	rest, ok := strings.CutPrefix(path, "/api/v2/")
	if !ok || !strings.HasSuffix(rest, "/") {
		return nil, false
	}
	parts := strings.Split(strings.TrimSuffix(rest, "/"), "/")
	for _, p := range parts[1:] {
		if p == "" || strings.Contains(p, ".") {
			return nil, false
		}
	}
	switch {
	case len(parts) == 1 && parts[0] == "project":
		return h.listProjects, true
	case len(parts) == 1 && parts[0] == "version":
		return h.listVersions, true
	case len(parts) == 1 && parts[0] == "build":
		return h.listBuilds, true
	case len(parts) == 1 && parts[0] == "embed":
		return h.embed, true
	case len(parts) == 2 && parts[0] == "project":
		return func(r *http.Request) (int, any) { return h.getProject(parts[1]) }, true
	case len(parts) == 3 && parts[0] == "project" && parts[2] == "active_versions":
		return func(r *http.Request) (int, any) { return h.activeVersions(parts[1]) }, true
	case len(parts) == 2 && parts[0] == "version":
		return func(r *http.Request) (int, any) { return h.getVersion(parts[1]) }, true
	case len(parts) == 2 && parts[0] == "build":
		return func(r *http.Request) (int, any) { return h.getBuild(parts[1]) }, true
	}
	return nil, false
}

// detail is DRF's error body.
type detail struct {
	Detail string `json:"detail"`
}

// embedError is the embed endpoint's error body.
type embedError struct {
	Error string `json:"error"`
}

// listDisabled is the real service's 410 body for an unfiltered list.
type listDisabled struct {
	Error string `json:"error"`
	Msg   string `json:"msg"`
}

// disabledList is the real service's answer to an unfiltered list.
var disabledList = listDisabled{
	Error: "disabled",
	Msg: "List endpoint have been disabled due to heavy resource usage. Take into account than APIv2 is " +
		"planned to be deprecated soon. Please use APIv3: https://docs.readthedocs.io/page/api/v3.html",
}
