package script

import (
	"net/http"
)

// manifestName is the name of the manifest file every project has.
const manifestName = "appsscript"

// defaultManifest is the manifest of a new project, as the real API writes it.
const defaultManifest = `{"timeZone":"America/New_York","dependencies":{},"exceptionLogging":"STACKDRIVER","runtimeVersion":"V8"}`

// projectJSON is the Project resource.
type projectJSON struct {
	ScriptID       string `json:"scriptId"`
	Title          string `json:"title,omitempty"`
	ParentID       string `json:"parentId,omitempty"`
	CreateTime     string `json:"createTime,omitempty"`
	UpdateTime     string `json:"updateTime,omitempty"`
	Creator        *user  `json:"creator,omitempty"`
	LastModifyUser *user  `json:"lastModifyUser,omitempty"`
}

// createProjectRequest is the body of projects.create.
type createProjectRequest struct {
	Title    string `json:"title"`
	ParentID string `json:"parentId"`
}

// toJSON renders the project's metadata.
func (p *project) toJSON() projectJSON {
	c, m := p.creator, p.modifier
	return projectJSON{ScriptID: p.id, Title: p.title, ParentID: p.parentID,
		CreateTime: fmtTime(p.create), UpdateTime: fmtTime(p.update), Creator: &c, LastModifyUser: &m}
}

// createProject is projects.create: a new project holding only the default manifest, with its
// HEAD deployment. The parent ID is recorded as given (the sandbox has no file storage to check).
func createProject(s *store, r *http.Request) (any, *apiError) {
	var req createProjectRequest
	if e := decodeBody(r, &req); e != nil {
		return nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id, e := s.makeID("project")
	if e != nil {
		return nil, e
	}
	headID, e := s.makeID("deployment")
	if e != nil {
		return nil, e
	}
	now := s.stamp()
	title := req.Title
	if title == "" {
		title = "Untitled project"
	}
	p := &project{id: id, title: title, parentID: req.ParentID, create: now, update: now, creator: ada, modifier: ada,
		files:       []file{{name: manifestName, typ: "JSON", source: defaultManifest, create: now, update: now, modifier: &ada}},
		deployments: []*deployment{{id: headID, head: true, manifest: manifestName, update: now}},
	}
	if e := s.persist(s.projectChange(p), s.counterChange()); e != nil {
		s.counter -= 2
		return nil, e
	}
	s.addProject(p)
	return p.toJSON(), nil
}

// getProject is projects.get.
func getProject(s *store, _ *http.Request, id string) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, e := s.project(id)
	if e != nil {
		return nil, e
	}
	return p.toJSON(), nil
}
