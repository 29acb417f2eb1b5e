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
		Content: []string{s.html(level)},
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
// section: the host is the project's canonical host or <slug>.readthedocs.io,
// the path /<language>/<version>/<doc path>, the fragment the section. Parts
// it cannot resolve stay empty, so the lookup answers 404.
func (h *handler) resolveURL(raw string) embedRequest {
	req := embedRequest{url: raw}
	u, err := url.Parse(raw)
	if err != nil {
		return req
	}
	if u.Fragment != "" {
		req.section = &u.Fragment
	}
	for _, p := range h.data.projects {
		c, err := url.Parse(p.CanonicalURL)
		if err == nil && (strings.EqualFold(u.Hostname(), c.Hostname()) ||
			strings.EqualFold(u.Hostname(), p.Slug+".readthedocs.io")) {
			req.project = p.Slug
		}
	}
	parts := strings.SplitN(strings.TrimPrefix(u.Path, "/"), "/", 3)
	if len(parts) >= 2 {
		req.version = parts[1]
	}
	rest := ""
	if len(parts) == 3 {
		rest = parts[2]
	}
	req.path = &rest
	req.doc = docName(rest)
	return req
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
	base := p.CanonicalURL
	if c, err := url.Parse(p.CanonicalURL); err == nil {
		base = c.Scheme + "://" + c.Host + "/" + p.Language + "/" + version + "/"
	}
	switch {
	case p.DocumentationType != "sphinx_htmldir":
		return base + doc + ".html"
	case doc == "index":
		return base
	default:
		return base + doc + "/"
	}
}

// pyStr formats s like Python's str() in the real error message: None for a
// missing value.
func pyStr(s *string) string {
	if s == nil || *s == "" {
		return "None"
	}
	return *s
}
