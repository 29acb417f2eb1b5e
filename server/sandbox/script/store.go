package script

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"loupe/server/sandbox/script/engine"
	"loupe/server/sandbox/state"
)

// user is a Google user as the API shows it (creator, lastModifyUser).
type user struct {
	Domain   string `json:"domain,omitempty"`
	Email    string `json:"email,omitempty"`
	Name     string `json:"name,omitempty"`
	PhotoURL string `json:"photoUrl,omitempty"`
}

// The sandbox's users. The caller is always Ada, the owner of the seeded project.
var (
	ada   = user{Domain: "example.com", Email: "ada@example.com", Name: "Ada Lovelace", PhotoURL: "https://lh3.googleusercontent.com/a/default-user=s64"}
	grace = user{Domain: "example.com", Email: "grace@example.com", Name: "Grace Hopper", PhotoURL: "https://lh3.googleusercontent.com/a/default-user=s64"}
)

// file is one file of a project or version.
type file struct {
	name, typ, source string
	create, update    time.Time
	modifier          *user // nil: not shown
}

// version is an immutable snapshot of a project's files.
type version struct {
	number      int
	description string
	create      time.Time
	files       []file
}

// deployment is a version of a project published with entry points. The HEAD deployment has
// version 0 and follows the HEAD content.
type deployment struct {
	id          string
	head        bool
	version     int
	manifest    string
	description string
	update      time.Time
	entryPoints []entryPoint // for HEAD, recomputed from the HEAD manifest when read
}

// project is a script project with its files, versions and deployments.
type project struct {
	id, title, parentID string
	create, update      time.Time
	creator, modifier   user
	access              string // the caller's access level: OWNER (when empty) or READ
	files               []file
	versions            []version
	deployments         []*deployment
}

// process is one execution record.
type process struct {
	key          string // internal ID, carried in page tokens
	scriptID     string
	deploymentID string
	runBy        string // email of the user who ran it
	projectName  string
	functionName string
	processType  string
	status       string
	access       string
	start        time.Time
	duration     time.Duration
	runtime      string
}

// bucket counts executions of one deployment of one project on one day (UTC).
type bucket struct {
	scriptID, deploymentID string
	day                    time.Time
	users                  int             // seeded active users
	emails                 map[string]bool // users added by runs
	total, failed          int
}

// store is the live state of one sandbox session (sessions.go): the seed, with the session's
// stored changes replayed onto it. Every change goes through save first (persist.go).
type store struct {
	mu        sync.Mutex
	save      func(...state.Change) *apiError // stores changes durably; nil for the shared seed
	runsDone  int                             // finished runs recorded (the r/ keys)
	idSalt    string                          // makes IDs differ between sessions ("" for state.Local)
	now       func() time.Time
	newID     func(kind string) string
	counter   int
	projects  map[string]*project
	order     []string // project IDs in creation order
	processes []*process
	buckets   []*bucket

	limits          engine.Limits              // of each run
	slots           *runSlots                  // the runs going on, shared by the handler's stores
	runner          runner                     // how runs are executed
	docs            map[string]json.RawMessage // the services' documents (docs.go)
	locks           map[string]*heldLock       // LockService's locks held by runs (host.go)
	maxVersionBytes int                        // bound of versionBytes
	versionBytes    int                        // bytes of the distinct sources in blobs
	blobs           map[[32]byte]string
}

// newStore returns an empty store with the clock and the ID maker (nil: deterministic IDs).
func newStore(now func() time.Time, newID func(string) string) *store {
	return &store{now: now, newID: newID, projects: map[string]*project{}, blobs: map[[32]byte]string{},
		docs: map[string]json.RawMessage{}, locks: map[string]*heldLock{},
		limits: engine.Limits{Timeout: defaultRunTimeout}, slots: newRunSlots(defaultMaxRuns, 0), maxVersionBytes: defaultMaxVersionBytes}
}

// stamp is the clock, truncated to milliseconds as the API shows times.
func (s *store) stamp() time.Time { return s.now().UTC().Truncate(time.Millisecond) }

// makeID returns a new ID of the kind ("project" or "deployment"), unique in the store.
func (s *store) makeID(kind string) (string, *apiError) {
	s.counter++
	var id string
	if s.newID != nil {
		id = s.newID(kind)
	} else {
		sum := sha256.Sum256(fmt.Appendf(nil, "loupe-script-%s-%d%s", kind, s.counter, s.idSalt))
		sum2 := sha256.Sum256(sum[:])
		enc := base64.RawURLEncoding.EncodeToString(append(sum[:], sum2[:]...))
		if kind == "deployment" {
			id = "AKfycb" + enc[:50]
		} else {
			id = "1" + enc[:56]
		}
	}
	if s.idTaken(id) {
		return "", errAlreadyExists(fmt.Sprintf("The %s ID %s is already in use.", kind, id))
	}
	return id, nil
}

// idTaken reports whether id names a project or a deployment.
func (s *store) idTaken(id string) bool {
	if _, ok := s.projects[id]; ok {
		return true
	}
	_, d := s.findDeployment(id)
	return d != nil
}

// project returns the project with the ID, or the 404 error.
func (s *store) project(id string) (*project, *apiError) {
	p, ok := s.projects[id]
	if !ok {
		return nil, errNotFound()
	}
	return p, nil
}

// findDeployment finds a deployment by ID across projects.
func (s *store) findDeployment(id string) (*project, *deployment) {
	for _, pid := range s.order {
		p := s.projects[pid]
		if d := p.deployment(id); d != nil {
			return p, d
		}
	}
	return nil, nil
}

// deployment returns the project's deployment with the ID, or nil.
func (p *project) deployment(id string) *deployment {
	for _, d := range p.deployments {
		if d.id == id {
			return d
		}
	}
	return nil
}

// version returns the project's version n, or nil.
func (p *project) version(n int) *version {
	if n < 1 || n > len(p.versions) {
		return nil
	}
	return &p.versions[n-1]
}

// accessLevel is the caller's access level on the project.
func (p *project) accessLevel() string {
	if p.access == "" {
		return "OWNER"
	}
	return p.access
}

// writable returns the 403 when the caller may only read the project.
func (p *project) writable() *apiError {
	if p.accessLevel() == "READ" {
		return errPermission("The caller does not have permission: the project is shared with you read-only.")
	}
	return nil
}

// manifest returns the source of the appsscript file among files.
func manifest(files []file) string {
	for _, f := range files {
		if f.name == manifestName && f.typ == "JSON" {
			return f.source
		}
	}
	return ""
}

// addProject stores p.
func (s *store) addProject(p *project) {
	s.projects[p.id] = p
	s.order = append(s.order, p.id)
}

// Time formats of the API: most times carry milliseconds; metrics periods do not.
const (
	timeMillis  = "2006-01-02T15:04:05.000Z07:00"
	timeSeconds = "2006-01-02T15:04:05Z07:00"
)

// fmtTime formats t as the API does (UTC, milliseconds); the zero time is "".
func fmtTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(timeMillis)
}

// mustTime parses a seed time; it panics on a typo in the seed.
func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(fmt.Errorf("script sandbox seed: %w", err))
	}
	return t.UTC()
}

// fmtDuration formats d as a google.protobuf.Duration in JSON: seconds with an "s" suffix,
// and the nanoseconds, if any, as a fraction without its trailing zeros ("1.5s", "0.000001s").
func fmtDuration(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	s := sign + strconv.FormatInt(int64(d/time.Second), 10)
	if ns := int64(d % time.Second); ns != 0 {
		s += "." + strings.TrimRight(strconv.FormatInt(ns+1e9, 10)[1:], "0") // nine digits, then trimmed
	}
	return s + "s"
}
