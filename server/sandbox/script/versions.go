package script

import (
	"net/http"
	"strconv"
)

// versionJSON is the Version resource.
type versionJSON struct {
	ScriptID      string `json:"scriptId,omitempty"`
	VersionNumber int    `json:"versionNumber,omitempty"`
	Description   string `json:"description,omitempty"`
	CreateTime    string `json:"createTime,omitempty"`
}

// listVersionsResponse is one page of versions.
type listVersionsResponse struct {
	Versions      []versionJSON `json:"versions,omitempty"`
	NextPageToken string        `json:"nextPageToken,omitempty"`
}

// toJSON renders version v of project p.
func (v *version) toJSON(scriptID string) versionJSON {
	return versionJSON{ScriptID: scriptID, VersionNumber: v.number, Description: v.description, CreateTime: fmtTime(v.create)}
}

// createVersion is projects.versions.create: a snapshot of the HEAD files numbered after the
// last version. Only description is read from the body; the read-only fields are ignored.
func createVersion(s *store, r *http.Request, id string) (any, *apiError) {
	var req versionJSON
	if e := decodeBody(r, &req); e != nil {
		return nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, e := s.project(id)
	if e != nil {
		return nil, e
	}
	if e := p.writable(); e != nil {
		return nil, e
	}
	files, fresh := s.versionFiles(p.files)
	if e := s.fitVersion(fresh); e != nil {
		return nil, e
	}
	v := version{number: len(p.versions) + 1, description: req.Description, create: s.stamp(), files: files}
	if e := s.persist(versionChanges(p.id, v, fresh)...); e != nil {
		return nil, e
	}
	s.keepBlobs(fresh)
	p.versions = append(p.versions, v)
	return v.toJSON(p.id), nil
}

// getVersion is projects.versions.get.
func getVersion(s *store, _ *http.Request, id, number string) (any, *apiError) {
	n, err := strconv.ParseInt(number, 10, 32)
	if err != nil {
		return nil, invalidValue("versionNumber", "TYPE_INT32", number)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, e := s.project(id)
	if e != nil {
		return nil, e
	}
	v := p.version(int(n))
	if v == nil {
		return nil, errNotFound()
	}
	return v.toJSON(p.id), nil
}

// listVersions is projects.versions.list: oldest first, pageSize at a time.
func listVersions(s *store, r *http.Request, id string) (any, *apiError) {
	q := r.URL.Query()
	size, e := pageSize(q)
	if e != nil {
		return nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, e := s.project(id)
	if e != nil {
		return nil, e
	}
	start := 0
	if tok := q.Get("pageToken"); tok != "" {
		n, ok := parseVersionToken(tok)
		if !ok || n > len(p.versions) {
			return nil, errBadToken(tok)
		}
		start = n
	}
	items, more := page(p.versions, start, size)
	var out listVersionsResponse
	for i := range items {
		out.Versions = append(out.Versions, items[i].toJSON(p.id))
	}
	if more {
		out.NextPageToken = versionToken(items[len(items)-1].number)
	}
	return out, nil
}
