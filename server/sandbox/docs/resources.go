package docs

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	"loupe/server/sandbox/drf"
)

// listProjects answers GET /api/v2/project/, filtered by slug.
func (h *handler) listProjects(r *http.Request) (int, any) {
	q := r.URL.Query()
	if h.disableUnfilter && !q.Has("slug") {
		return http.StatusGone, disabledList
	}
	out := make([]json.RawMessage, 0, len(h.data.projects))
	for i, p := range h.data.projects {
		if matches(q, "slug", p.Slug) {
			out = append(out, h.data.projectsJSON[i])
		}
	}
	if q.Has(pageQueryParam) {
		return pageNumber(h, r, q, out)
	}
	return http.StatusOK, limitOffset(h, r, q, out)
}

// getProject answers GET /api/v2/project/{id}/.
func (h *handler) getProject(id string) (int, any) {
	p, status, err := h.project(id)
	if err != nil {
		return status, err
	}
	return http.StatusOK, p
}

// activeVersions answers GET /api/v2/project/{id}/active_versions/: the
// project's active versions, not paged, in the version list's order.
func (h *handler) activeVersions(id string) (int, any) {
	p, status, err := h.project(id)
	if err != nil {
		return status, err
	}
	out := activeVersionsBody{Versions: []versionBody{}}
	for _, v := range h.data.versions {
		if v.ProjectID == p.ID && v.Active {
			out.Versions = append(out.Versions, h.data.body(v))
		}
	}
	return http.StatusOK, out
}

// project finds a project by the id path segment, or returns DRF's 404.
func (h *handler) project(id string) (Project, int, any) {
	n, ok := pathID(id)
	if !ok {
		return Project{}, http.StatusNotFound, detail{"Not found."}
	}
	p, ok := h.data.byID[n]
	if !ok {
		return Project{}, http.StatusNotFound, detail{"No Project matches the given query."}
	}
	return p, 0, nil
}

// listVersions answers GET /api/v2/version/, filtered by project__slug and
// active.
func (h *handler) listVersions(r *http.Request) (int, any) {
	q := r.URL.Query()
	if h.disableUnfilter && !q.Has("project__slug") {
		return http.StatusGone, disabledList
	}
	active, filterActive := boolFilter(q, "active")
	out := make([]json.RawMessage, 0, len(h.data.versions))
	for i, v := range h.data.versions {
		p := h.data.byID[v.ProjectID]
		if matches(q, "project__slug", p.Slug) && (!filterActive || v.Active == active) {
			out = append(out, h.data.versionsJSON[i])
		}
	}
	return http.StatusOK, limitOffset(h, r, q, out)
}

// getVersion answers GET /api/v2/version/{id}/.
func (h *handler) getVersion(id string) (int, any) {
	n, ok := pathID(id)
	if !ok {
		return http.StatusNotFound, detail{"Not found."}
	}
	for _, v := range h.data.versions {
		if v.ID == n {
			return http.StatusOK, h.data.body(v)
		}
	}
	return http.StatusNotFound, detail{"No Version matches the given query."}
}

// listBuilds answers GET /api/v2/build/, most recent first, filtered by
// project__slug and commit.
func (h *handler) listBuilds(r *http.Request) (int, any) {
	q := r.URL.Query()
	if h.disableUnfilter && !q.Has("project__slug") && !q.Has("commit") {
		return http.StatusGone, disabledList
	}
	out := make([]json.RawMessage, 0, len(h.data.builds))
	for i, b := range h.data.builds {
		commit := ""
		if b.Commit != nil {
			commit = *b.Commit
		}
		if matches(q, "project__slug", b.ProjectSlug) && matches(q, "commit", commit) {
			out = append(out, h.data.buildsJSON[i])
		}
	}
	return http.StatusOK, limitOffset(h, r, q, out)
}

// getBuild answers GET /api/v2/build/{id}/.
func (h *handler) getBuild(id string) (int, any) {
	n, ok := pathID(id)
	if !ok {
		return http.StatusNotFound, detail{"Not found."}
	}
	for _, b := range h.data.builds {
		if b.ID == n {
			return http.StatusOK, b
		}
	}
	return http.StatusNotFound, detail{"No Build matches the given query."}
}

// pathID parses an id path segment like Django's integer field lookup.
func pathID(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// matches is django-filter's exact filter: an absent or empty value does not
// filter; otherwise the last value must equal got.
func matches(q url.Values, key, got string) bool {
	v, ok := drf.LastValue(q, key)
	return !ok || v == "" || v == got
}

// boolFilter is django-filter's BooleanFilter: true/True/1 and
// false/False/0 filter, anything else (or nothing) does not.
func boolFilter(q url.Values, key string) (value, ok bool) {
	v, _ := drf.LastValue(q, key)
	switch v {
	case "true", "True", "1":
		return true, true
	case "false", "False", "0":
		return false, true
	}
	return false, false
}
