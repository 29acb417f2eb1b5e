package script

import (
	"errors"
	"regexp"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
)

// lineMap maps the lines of one compiled program back to the files it was made of: a project
// file is one program of its own; a library is one program of all its files (see library.go).
type lineMap []lineRange

// lineRange says that the program's lines from start on are the lines of file from 1 on.
type lineRange struct {
	file  string
	start int
}

// locate returns the file and its line for line of the program.
func (m lineMap) locate(line int) (string, int) {
	for i := len(m) - 1; i >= 0; i-- {
		if line >= m[i].start {
			return m[i].file, line - m[i].start + 1
		}
	}
	return "", line
}

// sources holds the line maps of the loaded programs by program name.
type sources map[string]lineMap

// toFailure turns an error of the engine into the run's failure: a thrown JavaScript value, a
// stack overflow, or an interruption (time or memory limit).
func toFailure(err error, srcs sources) *scriptFailure {
	var (
		interrupted *goja.InterruptedError
		overflow    *goja.StackOverflowError
		exc         *goja.Exception
	)
	switch {
	case errors.As(err, &interrupted):
		f := &scriptFailure{message: errRunTimeout.Error(), stack: frames(interrupted.Stack(), srcs)}
		if v, ok := interrupted.Value().(error); ok && errors.Is(v, errRunMemory) {
			f.message = errRunMemory.Error()
		} else {
			f.timedOut = true
		}
		return f
	case errors.As(err, &overflow):
		return &scriptFailure{errType: "RangeError", message: "Maximum call stack size exceeded", stack: frames(overflow.Stack(), srcs)}
	case errors.As(err, &exc):
		typ, msg := thrown(exc.Value())
		return &scriptFailure{errType: typ, message: msg, stack: frames(exc.Stack(), srcs)}
	}
	return compileFailure(err, srcs)
}

// thrown reads the type and message of a thrown value: an Error's name and message, otherwise
// "Error" and the value as a string (throw 'oops').
func thrown(v goja.Value) (typ, msg string) {
	if v == nil {
		return "Error", "undefined"
	}
	if obj, ok := v.(*goja.Object); ok && obj.ClassName() == "Error" {
		typ, msg = "Error", ""
		if n := obj.Get("name"); n != nil && !goja.IsUndefined(n) {
			typ = n.String()
		}
		if m := obj.Get("message"); m != nil && !goja.IsUndefined(m) {
			msg = m.String()
		}
		if typ == "TypeError" {
			msg = readNullish.ReplaceAllString(msg, "Cannot read properties of undefined or null (reading '$1')")
		}
		return typ, msg
	}
	return "Error", v.String()
}

// readNullish matches goja's message for reading a property of undefined or null. goja says
// "of undefined" for both, V8 names which one; the sandbox says both rather than a wrong one.
var readNullish = regexp.MustCompile(`^Cannot read property '(.*)' of undefined(?: or null)?$`)

// compileFailure turns a syntax error met while loading into a SyntaxError failure at its line.
func compileFailure(err error, srcs sources) *scriptFailure {
	name, line, msg := syntaxPosition(err)
	f := &scriptFailure{errType: "SyntaxError", message: msg}
	if line > 0 {
		_, l := srcs[name].locate(line)
		f.stack = []stackFrame{{Function: "", LineNumber: l}}
	}
	return f
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

// frames turns the engine's stack (deepest first) into ScriptStackTraceElements, keeping only
// the frames in the project's and its libraries' files.
func frames(stack []goja.StackFrame, srcs sources) []stackFrame {
	var out []stackFrame
	for i := range stack {
		f := &stack[i]
		m, ok := srcs[f.SrcName()]
		if !ok {
			continue
		}
		_, line := m.locate(f.Position().Line)
		out = append(out, stackFrame{Function: f.FuncName(), LineNumber: line})
	}
	return out
}
