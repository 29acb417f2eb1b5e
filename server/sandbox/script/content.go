package script

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
)

// contentJSON is the Content resource.
type contentJSON struct {
	ScriptID string     `json:"scriptId,omitempty"`
	Files    []fileJSON `json:"files"`
}

// fileJSON is the File resource. Read-only fields are accepted in requests and ignored.
type fileJSON struct {
	Name           string       `json:"name"`
	Type           string       `json:"type"`
	Source         string       `json:"source"`
	FunctionSet    *functionSet `json:"functionSet,omitempty"`
	CreateTime     string       `json:"createTime,omitempty"`
	UpdateTime     string       `json:"updateTime,omitempty"`
	LastModifyUser *user        `json:"lastModifyUser,omitempty"`
}

// functionSet lists the functions declared in a file.
type functionSet struct {
	Values []function `json:"values"`
}

// function is one declared function and its parameter names.
type function struct {
	Name       string   `json:"name"`
	Parameters []string `json:"parameters,omitempty"`
}

// filesJSON renders files; withUser adds each file's lastModifyUser.
func filesJSON(files []file, withUser bool) []fileJSON {
	out := make([]fileJSON, 0, len(files))
	for _, f := range files {
		j := fileJSON{Name: f.name, Type: f.typ, Source: f.source, CreateTime: fmtTime(f.create), UpdateTime: fmtTime(f.update)}
		if withUser && f.modifier != nil {
			u := *f.modifier
			j.LastModifyUser = &u
		}
		if f.typ == "SERVER_JS" {
			if fns := functionsOf(f.source); len(fns) > 0 {
				j.FunctionSet = &functionSet{Values: fns}
			}
		}
		out = append(out, j)
	}
	return out
}

// getContent is projects.getContent: the HEAD files, or those of versionNumber.
func getContent(s *store, r *http.Request, id string) (any, *apiError) {
	n := 0
	if v := r.URL.Query().Get("versionNumber"); v != "" {
		i, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			return nil, invalidValue("versionNumber", "TYPE_INT32", v)
		}
		n = int(i)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, e := s.project(id)
	if e != nil {
		return nil, e
	}
	files := p.files
	if n != 0 {
		v := p.version(n)
		if v == nil {
			return nil, errNotFound()
		}
		files = v.files
	}
	return contentJSON{ScriptID: p.id, Files: filesJSON(files, true)}, nil
}

// updateContent is projects.updateContent: it validates the files, then replaces all the HEAD
// files with them (every file is new: created and updated now). Its answer, like the
// document's example, does not repeat lastModifyUser; getContent shows it.
func updateContent(s *store, r *http.Request, id string) (any, *apiError) {
	var req contentJSON
	if e := decodeBody(r, &req); e != nil {
		return nil, e
	}
	if e := validateFiles(req.Files); e != nil {
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
	if req.ScriptID != "" && req.ScriptID != p.id {
		return nil, invalidArgument("scriptId", fmt.Sprintf("The body's scriptId %q is not the project %q of the path.", req.ScriptID, p.id))
	}
	now := s.stamp()
	files := make([]file, len(req.Files))
	for i, f := range req.Files {
		files[i] = file{name: f.Name, typ: f.Type, source: f.Source, create: now, update: now, modifier: &ada}
	}
	next := *p
	next.files, next.update, next.modifier = files, now, ada
	next.deployments = make([]*deployment, len(p.deployments))
	for i, d := range p.deployments {
		next.deployments[i] = d
		if d.head {
			h := *d
			h.update = now
			next.deployments[i] = &h
		}
	}
	if e := s.persist(s.projectChange(&next)); e != nil {
		return nil, e
	}
	*p = next
	return contentJSON{ScriptID: p.id, Files: filesJSON(files, false)}, nil
}

// validName is what a file name may hold: letters, digits and _ - . / ( ) and spaces.
var validName = regexp.MustCompile(`^[\w\-./() ]+$`)

// validateFiles checks a complete set of files: known types, valid unique names, and exactly one
// manifest (appsscript, JSON, a JSON object with valid known fields).
func validateFiles(files []fileJSON) *apiError {
	if len(files) == 0 {
		return invalidArgument("files", "The files are required: a project has at least the manifest file appsscript.")
	}
	seen := map[string]bool{}
	manifests := 0
	for i, f := range files {
		field := fmt.Sprintf("files[%d]", i)
		switch f.Type {
		case "SERVER_JS", "HTML", "JSON":
		default:
			return invalidArgument(field+".type", fmt.Sprintf("Invalid file type %q of file %q: use SERVER_JS, HTML or JSON.", f.Type, f.Name))
		}
		if !validName.MatchString(f.Name) {
			return invalidArgument(field+".name", fmt.Sprintf("Invalid file name %q: use letters, digits, spaces and _ - . / ( ).", f.Name))
		}
		if seen[f.Name+"."+f.Type] {
			return invalidArgument(field+".name", fmt.Sprintf("Duplicate file %q of type %s.", f.Name, f.Type))
		}
		seen[f.Name+"."+f.Type] = true
		switch {
		case f.Type == "SERVER_JS":
			if msg := checkSyntax(f.Name, f.Source); msg != "" {
				return invalidArgument(field+".source", msg)
			}
		case f.Type == "JSON" && f.Name != manifestName:
			return invalidArgument(field+".name", fmt.Sprintf("The JSON file %q is not allowed: only the manifest appsscript has type JSON.", f.Name))
		case f.Type == "JSON":
			manifests++
			if e := validateManifest(field+".source", f.Source); e != nil {
				return e
			}
		}
	}
	if manifests == 0 {
		return invalidArgument("files", "The manifest file appsscript (type JSON) is missing.")
	}
	return nil
}

// manifestJSON is the part of a manifest the sandbox reads.
type manifestJSON struct {
	TimeZone       string `json:"timeZone"`
	RuntimeVersion string `json:"runtimeVersion"`
	ExecutionAPI   *struct {
		Access string `json:"access"`
	} `json:"executionApi"`
	WebApp *struct {
		Access    string `json:"access"`
		ExecuteAs string `json:"executeAs"`
	} `json:"webapp"`
	AddOns *struct {
		Common struct {
			Name string `json:"name"`
		} `json:"common"`
		Gmail json.RawMessage `json:"gmail"`
	} `json:"addOns"`
}

// parseManifest decodes a manifest source (the zero manifest when it does not parse).
func parseManifest(source string) manifestJSON {
	var m manifestJSON
	_ = json.Unmarshal([]byte(source), &m)
	return m
}

// validateManifest checks that source is a JSON object whose known fields hold valid values.
func validateManifest(field, source string) *apiError {
	var obj map[string]any
	if err := json.Unmarshal([]byte(source), &obj); err != nil || obj == nil {
		return invalidArgument(field, "The manifest appsscript is not a JSON object: "+fmt.Sprint(err)+".")
	}
	var m manifestJSON
	if err := json.Unmarshal([]byte(source), &m); err != nil {
		return invalidArgument(field, fmt.Sprintf("The manifest appsscript does not match the manifest structure: %v.", err))
	}
	switch m.RuntimeVersion {
	case "", "V8", "STABLE", "DEPRECATED_ES5":
	default:
		return invalidArgument(field, fmt.Sprintf("Invalid runtimeVersion %q in the manifest: use V8, STABLE or DEPRECATED_ES5.", m.RuntimeVersion))
	}
	if m.ExecutionAPI != nil && !validAccess(m.ExecutionAPI.Access) {
		return invalidArgument(field, fmt.Sprintf("Invalid executionApi.access %q in the manifest.", m.ExecutionAPI.Access))
	}
	if m.WebApp != nil && !validAccess(m.WebApp.Access) {
		return invalidArgument(field, fmt.Sprintf("Invalid webapp.access %q in the manifest.", m.WebApp.Access))
	}
	return nil
}

// validAccess reports whether a manifest access value is known (empty means the default).
func validAccess(a string) bool {
	switch a {
	case "", "MYSELF", "DOMAIN", "ANYONE", "ANYONE_ANONYMOUS":
		return true
	}
	return false
}
