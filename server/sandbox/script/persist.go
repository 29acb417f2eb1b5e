package script

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"loupe/server/sandbox/state"
)

// A session's changes to the seed, as the state store keeps them (server/sandbox/state). The
// seed itself is never stored. Keys:
//
//	counter                          the ID counter (IDs and process keys derive from it)
//	p/<scriptId>                     a created or changed project: metadata, HEAD files, deployments
//	v/<scriptId>/<number, 8 digits>  a version made in the session (versions are immutable)
//	b/<sha256 hex>                   a version file's source, stored once per session
//	r/<seq, 10 digits>               a finished run's process
//	m/<scriptId>/<deploymentId>/<day> a metrics bucket the session's runs changed
//	d/<document key>                 a document of the services' state (docs.go): properties,
//	                                 caches, spreadsheets
//
// Projects and versions cannot be deleted in the API, so no tombstone is needed; a deleted
// deployment is absent from its project's record.

// savedFile is a file in a record: Source for HEAD files, Blob (a b/ key's hash) for versions.
type savedFile struct {
	Name     string    `json:"name"`
	Type     string    `json:"type"`
	Source   string    `json:"source,omitempty"`
	Blob     string    `json:"blob,omitempty"`
	Create   time.Time `json:"create"`
	Update   time.Time `json:"update"`
	Modifier *user     `json:"modifier,omitempty"`
}

// savedDeployment is a deployment in a project record.
type savedDeployment struct {
	ID          string       `json:"id"`
	Head        bool         `json:"head,omitempty"`
	Version     int          `json:"version,omitempty"`
	Manifest    string       `json:"manifest"`
	Description string       `json:"description,omitempty"`
	Update      time.Time    `json:"update"`
	EntryPoints []entryPoint `json:"entryPoints,omitempty"`
}

// savedProject is a p/ record; Seq orders the projects as they were created.
type savedProject struct {
	Seq         int               `json:"seq"`
	ID          string            `json:"id"`
	Title       string            `json:"title"`
	ParentID    string            `json:"parentId,omitempty"`
	Create      time.Time         `json:"create"`
	Update      time.Time         `json:"update"`
	Creator     user              `json:"creator"`
	Modifier    user              `json:"modifier"`
	Access      string            `json:"access,omitempty"`
	Files       []savedFile       `json:"files"`
	Deployments []savedDeployment `json:"deployments"`
}

// savedVersion is a v/ record.
type savedVersion struct {
	Number      int         `json:"number"`
	Description string      `json:"description,omitempty"`
	Create      time.Time   `json:"create"`
	Files       []savedFile `json:"files"`
}

// savedProcess is an r/ record.
type savedProcess struct {
	Key, ScriptID, DeploymentID, RunBy, ProjectName, FunctionName, ProcessType, Status, Access, Runtime string
	Start                                                                                               time.Time
	Duration                                                                                            time.Duration
}

// savedBucket is an m/ record.
type savedBucket struct {
	ScriptID, DeploymentID string
	Day                    time.Time
	Users                  int
	Emails                 []string
	Total, Failed          int
}

// mustJSON encodes a record; the records hold only encodable types.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Errorf("script sandbox: encoding a record: %w", err))
	}
	return b
}

// counterChange records the ID counter.
func (s *store) counterChange() state.Change {
	return state.Put("counter", []byte(strconv.Itoa(s.counter)))
}

// projectChange records p's metadata, HEAD files and deployments.
func (s *store) projectChange(p *project) state.Change {
	sp := savedProject{Seq: slices.Index(s.order, p.id), ID: p.id, Title: p.title, ParentID: p.parentID,
		Create: p.create, Update: p.update, Creator: p.creator, Modifier: p.modifier, Access: p.access}
	if sp.Seq < 0 {
		sp.Seq = len(s.order) // a project being created goes last
	}
	for _, f := range p.files {
		sp.Files = append(sp.Files, savedFile{Name: f.name, Type: f.typ, Source: f.source, Create: f.create, Update: f.update, Modifier: f.modifier})
	}
	for _, d := range p.deployments {
		sp.Deployments = append(sp.Deployments, savedDeployment{ID: d.id, Head: d.head, Version: d.version, Manifest: d.manifest,
			Description: d.description, Update: d.update, EntryPoints: d.entryPoints})
	}
	return state.Put("p/"+p.id, mustJSON(sp))
}

// versionChanges records version v of project id, and the sources it adds (fresh: hash → source).
func versionChanges(id string, v version, fresh map[[32]byte]string) []state.Change {
	sv := savedVersion{Number: v.number, Description: v.description, Create: v.create}
	for _, f := range v.files {
		sum := sha256.Sum256([]byte(f.source))
		sv.Files = append(sv.Files, savedFile{Name: f.name, Type: f.typ, Blob: hex.EncodeToString(sum[:]), Create: f.create, Update: f.update, Modifier: f.modifier})
	}
	out := []state.Change{state.Put(fmt.Sprintf("v/%s/%08d", id, v.number), mustJSON(sv))}
	for sum, src := range fresh {
		out = append(out, state.Put("b/"+hex.EncodeToString(sum[:]), []byte(src)))
	}
	return out
}

// processChange records a finished run's process; seq is its place among the session's runs.
func processChange(seq int, p *process) state.Change {
	return state.Put(fmt.Sprintf("r/%010d", seq), mustJSON(savedProcess{Key: p.key, ScriptID: p.scriptID, DeploymentID: p.deploymentID,
		RunBy: p.runBy, ProjectName: p.projectName, FunctionName: p.functionName, ProcessType: p.processType, Status: p.status,
		Access: p.access, Runtime: p.runtime, Start: p.start, Duration: p.duration}))
}

// bucketChange records a metrics bucket.
func bucketChange(b *bucket) state.Change {
	sb := savedBucket{ScriptID: b.scriptID, DeploymentID: b.deploymentID, Day: b.day, Users: b.users, Total: b.total, Failed: b.failed}
	for e := range b.emails {
		sb.Emails = append(sb.Emails, e)
	}
	slices.Sort(sb.Emails)
	return state.Put("m/"+b.scriptID+"/"+b.deploymentID+"/"+b.day.Format("2006-01-02"), mustJSON(sb))
}

// replay applies a session's stored changes (sorted by key) to a seeded store.
func (s *store) replay(entries []state.Entry) error {
	blobs := map[string]string{}
	var projects []savedProject
	for _, e := range entries {
		kind, _, _ := strings.Cut(e.Key, "/")
		var err error
		switch kind {
		case "b":
			blobs[strings.TrimPrefix(e.Key, "b/")] = string(e.Value)
		case "d":
			s.docs[strings.TrimPrefix(e.Key, "d/")] = append([]byte(nil), e.Value...)
		case "counter":
			s.counter, err = strconv.Atoi(string(e.Value))
		case "p":
			var sp savedProject
			if err = json.Unmarshal(e.Value, &sp); err == nil {
				projects = append(projects, sp)
			}
		}
		if err != nil {
			return fmt.Errorf("the stored change %s: %w", e.Key, err)
		}
	}
	slices.SortFunc(projects, func(a, b savedProject) int { return a.Seq - b.Seq })
	for _, sp := range projects {
		s.restoreProject(sp)
	}
	for _, e := range entries { // v/ after p/ (a project's versions need it), r/ and m/ in key order
		kind, _, _ := strings.Cut(e.Key, "/")
		var err error
		switch kind {
		case "v":
			err = s.restoreVersion(e, blobs)
		case "r":
			var sp savedProcess
			if err = json.Unmarshal(e.Value, &sp); err == nil {
				s.processes = append(s.processes, &process{key: sp.Key, scriptID: sp.ScriptID, deploymentID: sp.DeploymentID,
					runBy: sp.RunBy, projectName: sp.ProjectName, functionName: sp.FunctionName, processType: sp.ProcessType,
					status: sp.Status, access: sp.Access, start: sp.Start, duration: sp.Duration, runtime: sp.Runtime})
				s.runsDone++
			}
		case "m":
			err = s.restoreBucket(e.Value)
		}
		if err != nil {
			return fmt.Errorf("the stored change %s: %w", e.Key, err)
		}
	}
	return nil
}

// restoreProject puts a project record in place of the seeded one, or adds it.
func (s *store) restoreProject(sp savedProject) {
	p := s.projects[sp.ID]
	if p == nil {
		p = &project{id: sp.ID}
		s.addProject(p)
	}
	p.title, p.parentID, p.create, p.update, p.creator, p.modifier, p.access = sp.Title, sp.ParentID, sp.Create, sp.Update, sp.Creator, sp.Modifier, sp.Access
	p.files = nil
	for _, f := range sp.Files {
		p.files = append(p.files, file{name: f.Name, typ: f.Type, source: f.Source, create: f.Create, update: f.Update, modifier: f.Modifier})
	}
	p.deployments = nil
	for _, d := range sp.Deployments {
		p.deployments = append(p.deployments, &deployment{id: d.ID, head: d.Head, version: d.Version, manifest: d.Manifest,
			description: d.Description, update: d.Update, entryPoints: d.EntryPoints})
	}
}

// restoreVersion appends a version record to its project.
func (s *store) restoreVersion(e state.Entry, blobs map[string]string) error {
	id, _, _ := strings.Cut(strings.TrimPrefix(e.Key, "v/"), "/")
	p := s.projects[id]
	if p == nil {
		return fmt.Errorf("no project %s", id)
	}
	var sv savedVersion
	if err := json.Unmarshal(e.Value, &sv); err != nil {
		return err
	}
	if sv.Number != len(p.versions)+1 {
		return fmt.Errorf("version %d follows version %d", sv.Number, len(p.versions))
	}
	v := version{number: sv.Number, description: sv.Description, create: sv.Create}
	for _, f := range sv.Files {
		src, ok := blobs[f.Blob]
		if !ok {
			return fmt.Errorf("no source %s", f.Blob)
		}
		v.files = append(v.files, file{name: f.Name, typ: f.Type, source: src, create: f.Create, update: f.Update, modifier: f.Modifier})
	}
	files, fresh := s.versionFiles(v.files)
	s.keepBlobs(fresh)
	v.files = files
	p.versions = append(p.versions, v)
	return nil
}

// restoreBucket puts a bucket record in place of the seeded one, or adds it.
func (s *store) restoreBucket(data []byte) error {
	var sb savedBucket
	if err := json.Unmarshal(data, &sb); err != nil {
		return err
	}
	b := &bucket{scriptID: sb.ScriptID, deploymentID: sb.DeploymentID, day: sb.Day, users: sb.Users, total: sb.Total, failed: sb.Failed}
	if len(sb.Emails) > 0 {
		b.emails = map[string]bool{}
		for _, e := range sb.Emails {
			b.emails[e] = true
		}
	}
	i := slices.IndexFunc(s.buckets, func(x *bucket) bool {
		return x.scriptID == b.scriptID && x.deploymentID == b.deploymentID && x.day.Equal(b.day)
	})
	if i < 0 {
		s.buckets = append(s.buckets, b)
	} else {
		s.buckets[i] = b
	}
	return nil
}
