package docs

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"loupe/server/sandbox/drf"
)

// embedBody is the body of getEmbed.
type embedBody struct {
	Content []string            `json:"content"`
	Headers []map[string]string `json:"headers"`
	URL     string              `json:"url"`
	Meta    embedMeta           `json:"meta"`
}

// embedMeta says where the embedded content came from.
type embedMeta struct {
	Project *string `json:"project"`
	Version *string `json:"version"`
	Doc     *string `json:"doc"`
	Section *string `json:"section"`
}

// embedRequest is what getEmbed was asked for, from url or the parameters.
type embedRequest struct {
	project, version, doc string
	path, section         *string // nil when not given
	url                   string  // as given, or "" to derive it
	unresolved            bool    // url names no page of a hosted project
}

// invalidArguments is the 400 message when neither url nor project with doc
// (or path) is given.
const invalidArguments = `Invalid Arguments. Please provide "url" or "section" and "path" GET arguments.`

// embed answers GET /api/v2/embed/ with the HTML of a page, or of the section
// whose anchor is section, returned as is.
func (h *handler) embed(r *http.Request) (int, any) {
	req, ok := h.embedRequest(r.URL.Query())
	if !ok {
		return http.StatusBadRequest, embedError{invalidArguments}
	}
	if req.unresolved {
		// The real view looks the project up from the URL with
		// get_object_or_404, before anything else.
		return http.StatusNotFound, detail{"No Project matches the given query."}
	}
	notFound := embedError{fmt.Sprintf("Can't find content for section: doc=%s path=%s section=%s",
		pyStr(&req.doc), pyStr(req.path), pyStr(req.section))}
	p, ok := h.data.projectBySlug(req.project)
	if !ok {
		return http.StatusNotFound, notFound
	}
	if v, ok := h.data.version(p.ID, req.version); !ok || !v.Built {
		return http.StatusNotFound, notFound
	}
	top, ok := h.data.pages[p.Slug][req.doc]
	if !ok {
		return http.StatusNotFound, notFound
	}
	s, level := top, 1
	if req.section != nil {
		if s, level, ok = top.find(*req.section); !ok {
			return http.StatusNotFound, notFound
		}
	}
	u := req.url
	if u == "" {
		u = docURL(p, req.version, req.doc)
		if req.section != nil {
			u += "#" + *req.section
		}
	}
	return http.StatusOK, embedBody{
		Content: []string{strings.ReplaceAll(s.html(level), `src="`+mediaScheme, `src="`+h.mediaBase(r))},
		Headers: s.headers(top),
		URL:     u,
		Meta:    embedMeta{Project: &p.Slug, Version: &req.version, Doc: &req.doc, Section: req.section},
	}
}

// embedRequest reads the query: url (which replaces project, version, doc
// and section), else project with doc or path. It reports false when the
// query names no document.
func (h *handler) embedRequest(q url.Values) (embedRequest, bool) {
	get := func(k string) string { v, _ := drf.LastValue(q, k); return v }
	opt := func(k string) *string {
		if v := get(k); v != "" {
			return &v
		}
		return nil
	}
	if raw := get("url"); raw != "" {
		return h.resolveURL(raw), true
	}
	req := embedRequest{project: get("project"), version: get("version"), doc: get("doc"),
		path: opt("path"), section: opt("section")}
	if req.version == "" {
		req.version = "latest"
	}
	if req.doc == "" && req.path != nil {
		req.doc = docName(*req.path)
	}
	return req, req.project != "" && req.doc != ""
}

// resolveURL maps a documentation URL to its project, version, doc and
// section, like the real service's unresolver: the host is the project's
// canonical host or <slug>.readthedocs.io, the path the project's prefix
// (/<language>/ or its custom prefix), the version and the doc path, the
// fragment the section. A URL that is malformed, not http(s), or on a host
// or under a prefix no project serves is unresolved.
func (h *handler) resolveURL(raw string) embedRequest {
	req := embedRequest{url: raw, unresolved: true}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return req
	}
	if u.Fragment != "" {
		req.section = &u.Fragment
	}
	for _, p := range h.data.projects {
		c, err := url.Parse(p.CanonicalURL)
		if err != nil || !(strings.EqualFold(u.Hostname(), c.Hostname()) ||
			strings.EqualFold(u.Hostname(), p.Slug+".readthedocs.io")) {
			continue
		}
		rest, ok := strings.CutPrefix(u.Path, projectPrefix(p))
		if !ok {
			continue
		}
		req.project, req.unresolved = p.Slug, false
		version, doc, _ := strings.Cut(rest, "/")
		req.version = version
		req.path = &doc
		req.doc = docName(doc)
	}
	return req
}

// projectPrefix is the path under which p serves its versions: its custom
// prefix, or /<language>/.
func projectPrefix(p Project) string {
	if p.CustomPrefix != nil {
		return *p.CustomPrefix
	}
	return "/" + p.Language + "/"
}

// mediaBase is the absolute URL of the sandbox's own image route: the host
// the client used, the site's root and the sandbox's mount point (never a
// proxy's prefix, so the images load from the sandbox wherever the JSON went
// through). The root is what stands before /proxy/docs or the mount point in
// the path the client used: "" for a server at the root of its host, the
// public URL's path behind a proxy, the site's base in the static explorer
// (which publishes the images at <base>/sandbox/docs/_images/, see Images).
func (h *handler) mediaBase(r *http.Request) string {
	u := drf.AbsoluteURL(r, h.prefix)
	mount := strings.TrimSuffix(u.Path, r.URL.Path)
	root := mount
	for _, m := range []string{"/proxy/docs", h.prefix} {
		if i := strings.LastIndex(mount, m); i >= 0 {
			root = mount[:i]
			break
		}
	}
	return u.Scheme + "://" + u.Host + root + h.prefix + "/_images/"
}

// docName turns a document path (user_guide.html, user_guide/,
// user_guide/index.html, "") into its Sphinx document name (user_guide,
// index).
func docName(path string) string {
	d := strings.Trim(path, "/")
	d = strings.TrimSuffix(d, ".html")
	if d == "index" || d == "" {
		return "index"
	}
	return strings.TrimSuffix(d, "/index")
}

// docURL is the URL of a document in a version of p: clean URLs for Sphinx
// dirhtml (user_guide/), file URLs otherwise (user_guide.html).
func docURL(p Project, version, doc string) string {
	base := docBase(p, version)
	switch {
	case p.DocumentationType != "sphinx_htmldir":
		return base + doc + ".html"
	case doc == "index":
		return base
	default:
		return base + doc + "/"
	}
}

// docBase is the URL of a version of p: its canonical host, its prefix and
// the version.
func docBase(p Project, version string) string {
	c, err := url.Parse(p.CanonicalURL)
	if err != nil {
		return p.CanonicalURL
	}
	return c.Scheme + "://" + c.Host + projectPrefix(p) + version + "/"
}

// pyStr formats s like Python's str() in the real error message: None for a
// missing value.
func pyStr(s *string) string {
	if s == nil || *s == "" {
		return "None"
	}
	return *s
}
