package script

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"loupe/server/sandbox/state"
)

// deploymentConfig is the DeploymentConfig resource (also the body of deployments.create).
type deploymentConfig struct {
	ScriptID         string `json:"scriptId,omitempty"`
	VersionNumber    int    `json:"versionNumber,omitempty"`
	ManifestFileName string `json:"manifestFileName,omitempty"`
	Description      string `json:"description,omitempty"`
}

// deploymentJSON is the Deployment resource.
type deploymentJSON struct {
	DeploymentID     string           `json:"deploymentId"`
	DeploymentConfig deploymentConfig `json:"deploymentConfig"`
	UpdateTime       string           `json:"updateTime,omitempty"`
	EntryPoints      []entryPoint     `json:"entryPoints,omitempty"`
}

// updateDeploymentRequest is the body of deployments.update.
type updateDeploymentRequest struct {
	DeploymentConfig *deploymentConfig `json:"deploymentConfig"`
}

// listDeploymentsResponse is one page of deployments.
type listDeploymentsResponse struct {
	Deployments   []deploymentJSON `json:"deployments,omitempty"`
	NextPageToken string           `json:"nextPageToken,omitempty"`
}

// toJSON renders deployment d of project p; HEAD's entry points follow the HEAD manifest.
func (d *deployment) toJSON(p *project) deploymentJSON {
	eps := d.entryPoints
	if d.head {
		eps = entryPointsOf(d.id, manifest(p.files), true)
	}
	return deploymentJSON{DeploymentID: d.id, UpdateTime: fmtTime(d.update), EntryPoints: eps,
		DeploymentConfig: deploymentConfig{ScriptID: p.id, VersionNumber: d.version, ManifestFileName: d.manifest, Description: d.description}}
}

// checkConfig validates a deployment configuration against project p and returns the version.
func checkConfig(p *project, c *deploymentConfig, prefix string) (*version, *apiError) {
	if c.ScriptID != "" && c.ScriptID != p.id {
		return nil, invalidArgument(prefix+"scriptId", fmt.Sprintf("The scriptId %q is not the project %q of the path.", c.ScriptID, p.id))
	}
	if c.ManifestFileName != "" && c.ManifestFileName != manifestName {
		return nil, invalidArgument(prefix+"manifestFileName", fmt.Sprintf("The manifest file %q does not exist: the manifest is %s.", c.ManifestFileName, manifestName))
	}
	if c.VersionNumber == 0 {
		return nil, invalidArgument(prefix+"versionNumber", "The versionNumber is required: create a version first, then deploy it.")
	}
	v := p.version(c.VersionNumber)
	if v == nil {
		return nil, invalidArgument(prefix+"versionNumber", fmt.Sprintf("The version %d does not exist.", c.VersionNumber))
	}
	return v, nil
}

// createDeployment is projects.deployments.create: a deployment of an existing version, whose
// entry points follow from that version's manifest.
func createDeployment(s *store, r *http.Request, id string) (any, *apiError) {
	var req deploymentConfig
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
	v, e := checkConfig(p, &req, "")
	if e != nil {
		return nil, e
	}
	did, e := s.makeID("deployment")
	if e != nil {
		return nil, e
	}
	d := &deployment{id: did, version: v.number, manifest: manifestName, description: req.Description, update: s.stamp(),
		entryPoints: entryPointsOf(did, manifest(v.files), false)}
	if e := s.saveDeployments(p, append(slices.Clip(p.deployments), d), s.counterChange()); e != nil {
		s.counter--
		return nil, e
	}
	out := d.toJSON(p)
	localURLs(r, &out)
	return out, nil
}

// lookupDeployment returns the project and its deployment, or the 404.
func (s *store) lookupDeployment(id, did string) (*project, *deployment, *apiError) {
	p, e := s.project(id)
	if e != nil {
		return nil, nil, e
	}
	d := p.deployment(did)
	if d == nil {
		return nil, nil, errNotFound()
	}
	return p, d, nil
}

// errHead is the 400 for changing the HEAD deployment, which follows the HEAD content.
func errHead() *apiError {
	return invalidArgument("deploymentId", "The HEAD deployment cannot be updated or deleted: it always follows the latest saved content.")
}

// getDeployment is projects.deployments.get.
func getDeployment(s *store, r *http.Request, id, did string) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, d, e := s.lookupDeployment(id, did)
	if e != nil {
		return nil, e
	}
	out := d.toJSON(p)
	localURLs(r, &out)
	return out, nil
}

// updateDeployment is projects.deployments.update: it replaces the configuration (version and
// description) and recomputes the entry points; the ID stays.
func updateDeployment(s *store, r *http.Request, id, did string) (any, *apiError) {
	var req updateDeploymentRequest
	if e := decodeBody(r, &req); e != nil {
		return nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, d, e := s.lookupDeployment(id, did)
	if e != nil {
		return nil, e
	}
	if e := p.writable(); e != nil {
		return nil, e
	}
	if d.head {
		return nil, errHead()
	}
	if req.DeploymentConfig == nil {
		return nil, invalidArgument("deploymentConfig", "The deploymentConfig is required.")
	}
	v, e := checkConfig(p, req.DeploymentConfig, "deploymentConfig.")
	if e != nil {
		return nil, e
	}
	nd := *d
	nd.version, nd.description, nd.update = v.number, req.DeploymentConfig.Description, s.stamp()
	nd.entryPoints = entryPointsOf(d.id, manifest(v.files), false)
	ds := slices.Clone(p.deployments)
	ds[slices.Index(ds, d)] = &nd
	if e := s.saveDeployments(p, ds); e != nil {
		return nil, e
	}
	out := nd.toJSON(p)
	localURLs(r, &out)
	return out, nil
}

// deleteDeployment is projects.deployments.delete; the version is kept.
func deleteDeployment(s *store, _ *http.Request, id, did string) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, d, e := s.lookupDeployment(id, did)
	if e != nil {
		return nil, e
	}
	if e := p.writable(); e != nil {
		return nil, e
	}
	if d.head {
		return nil, errHead()
	}
	if e := s.saveDeployments(p, removeDeployment(p.deployments, d)); e != nil {
		return nil, e
	}
	return struct{}{}, nil
}

// saveDeployments stores project p with the deployments ds (and the other changes), then
// puts ds in p. The caller holds s.mu.
func (s *store) saveDeployments(p *project, ds []*deployment, more ...state.Change) *apiError {
	next := *p
	next.deployments = ds
	if e := s.persist(append([]state.Change{s.projectChange(&next)}, more...)...); e != nil {
		return e
	}
	p.deployments = ds
	return nil
}

// removeDeployment returns ds without d.
func removeDeployment(ds []*deployment, d *deployment) []*deployment {
	out := ds[:0:0]
	for _, x := range ds {
		if x != d {
			out = append(out, x)
		}
	}
	return out
}

// listDeployments is projects.deployments.list: HEAD first, then in creation order.
func listDeployments(s *store, r *http.Request, id string) (any, *apiError) {
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
		prefix, ok := parseDeploymentToken(tok)
		start = -1
		for i, d := range p.deployments {
			if ok && prefix != "" && strings.HasPrefix(d.id, prefix) {
				start = i + 1
				break
			}
		}
		if start < 0 {
			return nil, errBadToken(tok)
		}
	}
	items, more := page(p.deployments, start, size)
	var out listDeploymentsResponse
	for _, d := range items {
		out.Deployments = append(out.Deployments, d.toJSON(p))
	}
	for i := range out.Deployments {
		localURLs(r, &out.Deployments[i])
	}
	if more {
		out.NextPageToken = deploymentToken(items[len(items)-1].id)
	}
	return out, nil
}
