package engine

import (
	"fmt"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

// loadLibrary runs a library's SERVER_JS files in a function scope of their own, as one program
// named after its symbol, and defines the symbol as an object holding the library's top-level
// functions and vars. The wrapper starts on the first line, so line numbers map back to the
// library's files through the program's line map.
func loadLibrary(vm *goja.Runtime, lib Library, srcs sources) *Failure {
	var (
		body    strings.Builder
		exports []string
		lines   lineMap
		line    = 1
	)
	body.WriteString("(function () {")
	for _, f := range lib.Files {
		if f.Type != "SERVER_JS" {
			continue
		}
		lines = append(lines, lineRange{file: f.Name, start: line})
		body.WriteString(f.Source)
		body.WriteString("\n")
		line += strings.Count(f.Source, "\n") + 1
		exports = append(exports, globalNames(f.Source)...)
	}
	body.WriteString("return {")
	for _, name := range exports {
		fmt.Fprintf(&body, "%q: typeof %s === 'undefined' ? undefined : %s,", name, name, name)
	}
	body.WriteString("};\n})()")
	name := lib.Symbol + " (library)"
	srcs[name] = program{lines: lines, source: body.String()}
	prg, err := Compile(name, body.String())
	if err != nil {
		return compileFailure(err, srcs)
	}
	v, err := vm.RunProgram(prg)
	if err != nil {
		return failure(err, srcs)
	}
	if err := vm.Set(lib.Symbol, v); err != nil {
		return &Failure{Type: "ScriptError", Message: fmt.Sprintf("The library symbol %s cannot be defined.", lib.Symbol)}
	}
	return nil
}

// globalNames lists the names a library exposes: its top-level function declarations and var
// declarations, except those ending in "_" (private in Apps Script libraries).
func globalNames(source string) []string {
	prg, err := parser.ParseFile(nil, "", source, 0)
	if err != nil {
		return nil
	}
	var out []string
	add := func(name string) {
		if name != "" && name[len(name)-1] != '_' {
			out = append(out, name)
		}
	}
	for _, st := range prg.Body {
		switch d := st.(type) {
		case *ast.FunctionDeclaration:
			if d.Function.Name != nil {
				add(d.Function.Name.Name.String())
			}
		case *ast.VariableStatement:
			for _, b := range d.List {
				if id, ok := b.Target.(*ast.Identifier); ok {
					add(id.Name.String())
				}
			}
		}
	}
	return out
}
