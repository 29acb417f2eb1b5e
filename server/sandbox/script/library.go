package script

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// library is a manifest library resolved to the files it runs.
type library struct {
	symbol string // userSymbol: the global name the project calls it by
	files  []file
}

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
func (s *store) resolveLibraries(files []file) ([]library, *scriptFailure) {
	var out []library
	for _, ref := range libraryRefs(manifest(files)) {
		missing := &scriptFailure{errType: "ScriptError", message: fmt.Sprintf(
			"Library with identifier %s is missing (perhaps it was deleted, or maybe you don't have read access?)", ref.UserSymbol)}
		p, ok := s.projects[ref.LibraryID]
		if !ok || ref.UserSymbol == "" {
			return nil, missing
		}
		if ref.DevelopmentMode {
			out = append(out, library{symbol: ref.UserSymbol, files: p.files})
			continue
		}
		n, err := strconv.Atoi(ref.Version)
		v := p.version(n)
		if err != nil || v == nil {
			missing.message = fmt.Sprintf("Library with identifier %s has no version %q: use one of the versions of project %s, or developmentMode.",
				ref.UserSymbol, ref.Version, ref.LibraryID)
			return nil, missing
		}
		out = append(out, library{symbol: ref.UserSymbol, files: v.files})
	}
	return out, nil
}

// loadLibrary runs a library's SERVER_JS files in a function scope of their own, as one program
// named after its symbol, and defines the symbol as an object holding the library's top-level
// functions and vars. The wrapper starts on the first line, so line numbers map back to the
// library's files through the program's line map.
func loadLibrary(vm *goja.Runtime, lib library, srcs sources) *scriptFailure {
	var (
		body    strings.Builder
		exports []string
		lines   lineMap
		line    = 1
	)
	body.WriteString("(function () {")
	for _, f := range lib.files {
		if f.typ != "SERVER_JS" {
			continue
		}
		lines = append(lines, lineRange{file: f.name, start: line})
		body.WriteString(f.source)
		body.WriteString("\n")
		line += strings.Count(f.source, "\n") + 1
		exports = append(exports, globalNames(f.source)...)
	}
	body.WriteString("return {")
	for _, name := range exports {
		fmt.Fprintf(&body, "%q: typeof %s === 'undefined' ? undefined : %s,", name, name, name)
	}
	body.WriteString("};\n})()")
	name := lib.symbol + " (library)"
	srcs[name] = lines
	prg, err := compile(name, body.String())
	if err != nil {
		return compileFailure(err, srcs)
	}
	v, err := vm.RunProgram(prg)
	if err != nil {
		return toFailure(err, srcs)
	}
	if err := vm.Set(lib.symbol, v); err != nil {
		return &scriptFailure{errType: "ScriptError", message: fmt.Sprintf("The library symbol %s cannot be defined.", lib.symbol)}
	}
	return nil
}
