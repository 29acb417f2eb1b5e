package engine

import (
	"errors"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
)

// Compile parses then compiles a program named name; a parse error keeps its position.
func Compile(name, source string) (*goja.Program, error) {
	prg, err := parser.ParseFile(nil, name, source, 0)
	if err != nil {
		return nil, err
	}
	return goja.CompileAST(prg, false)
}

// SyntaxError returns the line and V8's message of the first syntax error of a SERVER_JS
// source, or ok when it compiles.
func SyntaxError(name, source string) (line int, msg string, ok bool) {
	if _, err := Compile(name, source); err != nil {
		_, line, msg = syntaxPosition(err)
		return line, msg, false
	}
	return 0, "", true
}

// syntaxPosition reads the program name, line and message of a compile error, in V8's words
// where goja's differ.
func syntaxPosition(err error) (name string, line int, msg string) {
	name, line, msg = rawSyntaxPosition(err)
	if msg == "Unexpected token ILLEGAL" {
		msg = "Invalid or unexpected token"
	}
	return name, line, msg
}

// rawSyntaxPosition is syntaxPosition in goja's words.
func rawSyntaxPosition(err error) (name string, line int, msg string) {
	var (
		cse  *goja.CompilerSyntaxError
		list parser.ErrorList
		one  *parser.Error
	)
	switch {
	case errors.As(err, &cse):
		if cse.File != nil {
			p := cse.File.Position(cse.Offset)
			return p.Filename, p.Line, cse.Message
		}
		return "", 0, cse.Message
	case errors.As(err, &list) && len(list) > 0:
		return list[0].Position.Filename, list[0].Position.Line, list[0].Message
	case errors.As(err, &one):
		return one.Position.Filename, one.Position.Line, one.Message
	}
	return "", 0, err.Error()
}
