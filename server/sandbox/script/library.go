package script

import (
	"encoding/json"
	"fmt"
	"strconv"

	"loupe/server/sandbox/script/engine"
)

// libraryRef is one entry of the manifest's dependencies.libraries.
type libraryRef struct {
	UserSymbol      string `json:"userSymbol"`
	LibraryID       string `json:"libraryId"`
	Version         string `json:"version"`
	DevelopmentMode bool   `json:"developmentMode"`
}

// libraryRefs reads dependencies.libraries of a manifest source (none when it does not parse).
func libraryRefs(manifestSource string) []libraryRef {
	var m struct {
		Dependencies struct {
			Libraries []libraryRef `json:"libraries"`
		} `json:"dependencies"`
	}
	_ = json.Unmarshal([]byte(manifestSource), &m)
	return m.Dependencies.Libraries
}

// resolveLibraries finds the files of each library the files' manifest names: another project
// of the sandbox, at its version, or its latest saved content in development mode. The caller
// holds s.mu. An unknown project or version is the failure the run reports.
func (s *store) resolveLibraries(files []file) ([]engine.Library, *engine.Failure) {
	var out []engine.Library
	for _, ref := range libraryRefs(manifest(files)) {
		missing := &engine.Failure{Type: "ScriptError", Message: fmt.Sprintf(
			"Library with identifier %s is missing (perhaps it was deleted, or maybe you don't have read access?)", ref.UserSymbol)}
		p, ok := s.projects[ref.LibraryID]
		if !ok || ref.UserSymbol == "" {
			return nil, missing
		}
		if ref.DevelopmentMode {
			out = append(out, engine.Library{Symbol: ref.UserSymbol, Files: engineFiles(p.files)})
			continue
		}
		n, err := strconv.Atoi(ref.Version)
		v := p.version(n)
		if err != nil || v == nil {
			missing.Message = fmt.Sprintf("Library with identifier %s has no version %q: use one of the versions of project %s, or developmentMode.",
				ref.UserSymbol, ref.Version, ref.LibraryID)
			return nil, missing
		}
		out = append(out, engine.Library{Symbol: ref.UserSymbol, Files: engineFiles(v.files)})
	}
	return out, nil
}

// engineFiles are files as the engine takes them.
func engineFiles(files []file) []engine.File {
	out := make([]engine.File, len(files))
	for i, f := range files {
		out[i] = engine.File{Name: f.name, Type: f.typ, Source: f.source}
	}
	return out
}
