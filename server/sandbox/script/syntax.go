package script

import (
	"fmt"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"

	"loupe/server/sandbox/script/engine"
)

// checkSyntax compiles a SERVER_JS source and returns the real API's message for its first
// syntax error ("Syntax error: SyntaxError: … line: N file: NAME"), or "" when it compiles.
func checkSyntax(name, source string) string {
	if line, msg, ok := engine.SyntaxError(name, source); !ok {
		return fmt.Sprintf("Syntax error: SyntaxError: %s line: %d file: %s", msg, line, name)
	}
	return ""
}

// functionsOf lists the top-level function declarations of a SERVER_JS source, in order and
// without duplicates, with their parameter names (a default value is left out, a rest
// parameter is "...name", a destructuring pattern is its source text). A source that does not
// parse declares nothing.
func functionsOf(source string) []function {
	prg, err := parser.ParseFile(nil, "", source, 0)
	if err != nil {
		return nil
	}
	var out []function
	seen := map[string]bool{}
	for _, st := range prg.Body {
		decl, ok := st.(*ast.FunctionDeclaration)
		if !ok || decl.Function.Name == nil {
			continue
		}
		name := decl.Function.Name.Name.String()
		if seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, function{Name: name, Parameters: paramNames(source, decl.Function.ParameterList)})
	}
	return out
}

// paramNames returns the names of a parameter list.
func paramNames(source string, list *ast.ParameterList) []string {
	if list == nil {
		return nil
	}
	var out []string
	for _, b := range list.List {
		out = append(out, targetName(source, b.Target))
	}
	if list.Rest != nil {
		out = append(out, "..."+targetName(source, list.Rest))
	}
	return out
}

// targetName is an identifier's name, or the source text of a pattern.
func targetName(source string, n ast.Node) string {
	if id, ok := n.(*ast.Identifier); ok {
		return id.Name.String()
	}
	from, to := int(n.Idx0())-1, int(n.Idx1())-1
	if from < 0 || to > len(source) || from >= to {
		return "?"
	}
	return source[from:to]
}
